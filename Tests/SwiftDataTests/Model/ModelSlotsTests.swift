import Foundation
import Testing

@testable import SwiftData

/// The slots a model's backing data keeps its values in: they grow keeping their values, are replaced and copied
/// whole, and release what they hold.
@Suite struct ModelSlotsTests {
    /// An object whose release the tests can see.
    private final class Tracked {}

    @Test func slotsGrowReplaceAndCopyKeepingTheirValues() {
        var slots = ModelSlots()
        #expect(slots.isEmpty)
        slots.grow(to: 2, filling: 0)
        slots[1] = "one"
        slots.grow(to: 4, filling: -1)
        #expect(slots.count == 4)
        #expect(slots[0] as? Int == 0)
        #expect(slots[1] as? String == "one")
        #expect(slots[3] as? Int == -1)
        // Growing to fewer slots changes nothing.
        slots.grow(to: 1, filling: 9)
        #expect(slots.count == 4)

        let initial: [Any] = ["a", 2, 3.5, true]
        var other = ModelSlots(count: 4) { initial[$0] }
        slots.assign(from: other)
        #expect(slots[0] as? String == "a")
        #expect(slots[2] as? Double == 3.5)
        other[0] = "changed"
        #expect(slots[0] as? String == "a")
        slots.release()
        other.release()
        #expect(slots.isEmpty)
    }

    @Test func replacingAndReleasingSlotsReleasesTheirValues() {
        weak var first: Tracked?
        weak var second: Tracked?
        var slots = ModelSlots()
        do {
            let a = Tracked()
            let b = Tracked()
            first = a
            second = b
            let initial: [Any] = [a, 1]
            slots = ModelSlots(count: 2) { initial[$0] }
            slots[1] = b
        }
        #expect(first != nil && second != nil)
        slots[0] = 0
        #expect(first == nil)
        slots.release()
        #expect(second == nil)
        #expect(slots.isEmpty)
    }

    /// Thrown while the slots are made.
    private struct Failure: Error {}

    @Test func slotsWhoseValueFailsReleaseTheValuesMadeBefore() {
        weak var made: Tracked?
        #expect(throws: Failure.self) {
            _ = try ModelSlots(count: 3) { index -> Any in
                guard index < 2 else { throw Failure() }
                let value = Tracked()
                made = value
                return value
            }
        }
        #expect(made == nil)
    }
}
