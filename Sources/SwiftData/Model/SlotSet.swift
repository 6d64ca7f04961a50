/// A set of slot indexes: which properties of a model changed since the last save.
///
/// Most models have fewer than 64 properties, so the set is a bit mask that needs no allocation; indexes from 64
/// on go to an ordinary `Set`. A `Set<Int>` allocated storage on every model's first change, which was a tenth of
/// the cost of changing an attribute of a fetched model.
package struct SlotSet: Sequence, ExpressibleByArrayLiteral, Equatable {
    private var bits: UInt64 = 0
    private var overflow: Set<Int> = []

    package init() {}

    package init(arrayLiteral indexes: Int...) {
        for index in indexes { insert(index) }
    }

    package var isEmpty: Bool { bits == 0 && overflow.isEmpty }

    package var count: Int { bits.nonzeroBitCount + overflow.count }

    /// The lowest index, or nil when the set is empty.
    package var first: Int? {
        bits != 0 ? bits.trailingZeroBitCount : overflow.min()
    }

    package func contains(_ index: Int) -> Bool {
        index < 64 ? bits & (1 << UInt64(index)) != 0 : overflow.contains(index)
    }

    package mutating func insert(_ index: Int) {
        precondition(index >= 0, "slot indexes are not negative")
        if index < 64 { bits |= 1 << UInt64(index) } else { overflow.insert(index) }
    }

    /// The indexes in ascending order.
    package func makeIterator() -> some IteratorProtocol<Int> {
        var remaining = bits
        var rest = overflow.sorted().makeIterator()
        return AnyIterator {
            guard remaining != 0 else { return rest.next() }
            let index = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            return index
        }
    }
}
