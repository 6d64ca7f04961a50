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
        slots.growUnset(to: 2)
        #expect(slots[0] is ModelStorage.Unset && slots[1] is ModelStorage.Unset)
        slots[1] = "one"
        slots.growUnset(to: 4)
        #expect(slots.count == 4)
        #expect(slots[0] is ModelStorage.Unset)
        #expect(slots[1] as? String == "one")
        #expect(slots[2] is ModelStorage.Unset && slots[3] is ModelStorage.Unset)
        // New slots hold the marker that in-place filling recognizes.
        #expect(slots.fill(unsetSlot: 3, with: -1))
        #expect(slots[3] as? Int == -1)
        // Growing to fewer slots changes nothing.
        slots.growUnset(to: 1)
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

    /// Three words: the largest value an `Any` keeps in itself.
    private struct ThreeWords: Equatable { var a = 1, b = 2, c = 3 }
    /// Four words: an `Any` keeps it in a box.
    private struct FourWords: Equatable { var a = 1, b = 2, c = 3, d = 4 }
    /// A weak reference, which may keep the run time from moving the value bit by bit.
    private struct WeakHolder { weak var object: Tracked? }

    @Test func slotsHandOutValuesTheyHoldInPlaceAndLeaveEverythingElseToACast() {
        let object = Tracked()
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        let id = UUID()
        let initial: [Any] = [
            7, "a string longer than fifteen bytes", date, id, ThreeWords(), FourWords(), object, Int32(3),
            Optional("wrapped") as Any, ModelStorage.Unset(), WeakHolder(object: object),
        ]
        var slots = ModelSlots(count: initial.count) { initial[$0] }
        defer { slots.release() }

        #expect(slots.inlineValue(at: 0, as: Int.self) == 7)
        #expect(slots.inlineValue(at: 1, as: String.self) == "a string longer than fifteen bytes")
        #expect(slots.inlineValue(at: 2, as: Date.self) == date)
        #expect(slots.inlineValue(at: 3, as: UUID.self) == id)
        #expect(slots.inlineValue(at: 4, as: ThreeWords.self) == ThreeWords())
        #expect(slots.inlineValue(at: 6, as: Tracked.self) === object)
        // A boxed value, another type, an optional asked for as its wrapped type, a marker and a slot out of range
        // are left to the caller.
        #expect(slots.inlineValue(at: 5, as: FourWords.self) == nil)
        #expect(slots.inlineValue(at: 7, as: Int.self) == nil)
        #expect(slots.inlineValue(at: 8, as: String.self) == nil)
        #expect(slots.inlineValue(at: 8, as: String?.self) == "wrapped")
        #expect(slots.inlineValue(at: 9, as: Int.self) == nil)
        #expect(slots.inlineValue(at: initial.count, as: Int.self) == nil)
        #expect(slots.inlineValue(at: -1, as: Int.self) == nil)
        // Whether the run time keeps this one in place or boxed, what comes back is the value itself.
        if let holder = slots.inlineValue(at: 10, as: WeakHolder.self) { #expect(holder.object === object) }
    }

    @Test func onlyUnsetSlotsAreFilledInPlace() {
        weak var released: Tracked?
        let initial: [Any] = [ModelStorage.Unset(), ModelStorage.Unset(), 5, ModelStorage.Unset()]
        var slots = ModelSlots(count: initial.count) { initial[$0] }
        do {
            let object = Tracked()
            released = object
            #expect(slots.fill(unsetSlot: 0, with: "a string longer than fifteen bytes"))
            #expect(slots.fill(unsetSlot: 1, with: FourWords()))
            #expect(slots.fill(unsetSlot: 3, with: object))
        }
        #expect(slots[0] as? String == "a string longer than fifteen bytes")
        #expect(slots[1] as? FourWords == FourWords())
        #expect(released != nil)
        // A slot holding a value, and slots out of range, are left alone.
        #expect(!slots.fill(unsetSlot: 2, with: 6))
        #expect(!slots.fill(unsetSlot: 0, with: "again"))
        #expect(!slots.fill(unsetSlot: 4, with: 1))
        #expect(!slots.fill(unsetSlot: -1, with: 1))
        #expect(slots[2] as? Int == 5)
        #expect(slots[0] as? String == "a string longer than fifteen bytes")
        slots.release()
        #expect(released == nil)
    }

    @Test func aSaveEncodesCommonValuesInPlaceExactlyAsItEncodesTheirCopies() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1_234.5)
        let initial: [Any] = ["text", 42, 2.5, true, date, Int32(7), ModelStorage.Unset()]
        var slots = ModelSlots(count: initial.count) { initial[$0] }
        defer { slots.release() }
        let types: [any Any.Type] = [String.self, Int.self, Double.self, Bool.self, Date.self, Int32.self, Int.self]
        for index in initial.indices.dropLast(2) {
            let codec = try #require(ValueCodec.make(for: types[index]))
            let inPlace = codec.encodedValue(inSlot: index, of: slots)
            #expect(inPlace != nil)
            #expect(inPlace == (try codec.encode(initial[index])))
        }
        // Another integer type and a marker are left to `encode(_:)`.
        #expect(ValueCodec.make(for: Int32.self)!.encodedValue(inSlot: 5, of: slots) == nil)
        #expect(ValueCodec.make(for: Int.self)!.encodedValue(inSlot: 6, of: slots) == nil)
    }
}
