import Testing

@testable import SwiftData

@Suite struct SlotSetTests {
    @Test func holdsIndexesBelowAndFrom64InAscendingOrder() {
        var slots: SlotSet = []
        #expect(slots.isEmpty && slots.count == 0 && slots.first == nil)
        for index in [70, 3, 0, 63, 64, 3, 200] { slots.insert(index) }
        #expect(Array(slots) == [0, 3, 63, 64, 70, 200])
        #expect(slots.count == 6)
        #expect(slots.first == 0)
        #expect(slots.contains(63) && slots.contains(64) && slots.contains(200))
        #expect(!slots.contains(1) && !slots.contains(65))
        #expect(!slots.isEmpty)
    }

    @Test func comparesByIndexes() {
        let high: SlotSet = [100]
        #expect(high.first == 100)
        #expect(high == [100])
        #expect(high != [1])
        #expect(SlotSet(arrayLiteral: 2, 1) == [1, 2])
    }
}
