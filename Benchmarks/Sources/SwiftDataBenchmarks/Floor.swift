import Foundation

// `swiftdata-bench --floor`: what W2 (read 100,000 rows and touch every value) costs when the rows become objects
// of a few shapes, with no SwiftData at all. Each shape is the skeleton of a way to keep a model's values; its
// ratio to the raw read is the least a persistence framework built that way can reach, before it tracks anything.

/// A model whose values are typed stored properties of its own object (the row's structure, held inline).
private final class PlainObject {
    let values: RawItem

    init(_ row: RawItem) { values = row }
}

/// What a model needs besides its values: identity, context and change tracking, about the size of SwiftData's
/// backing data besides its slots.
private struct ModelState {
    var key: Int64
    var flags = 0
    weak var context: AnyObject?
    var reserved: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

/// A model's state in an object of its own.
private final class StateObject {
    var state: ModelState

    init(key: Int64) { state = ModelState(key: key) }
}

/// A model with typed stored values and a state object beside it: two objects per row.
private final class TypedObject {
    let state: StateObject
    let values: RawItem

    init(_ row: RawItem) {
        state = StateObject(key: row.id)
        values = row
    }
}

/// A model, its backing object (the state) and a separately allocated buffer of six `Any` slots: SwiftData's
/// shape today, three allocations per row.
private final class SlotsObject {
    let backing: StateObject
    let slots = UnsafeMutablePointer<Any>.allocate(capacity: 6)

    init(_ row: RawItem) {
        backing = StateObject(key: row.id)
        initializeSlots(slots, with: row)
    }

    deinit {
        slots.deinitialize(count: 6)
        slots.deallocate()
    }

    /// The slots' values, cast back as a model's accessors do.
    var values: RawItem {
        item(key: backing.state.key, slots: slots)
    }
}

/// Backing state and its `Any` slots in one allocation.
private final class TailSlots: ManagedBuffer<ModelState, Any> {
    static let count = 6

    deinit {
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: Self.count) }
    }
}

/// A model and one backing object holding its state and six `Any` slots: two allocations per row.
private final class TailSlotsObject {
    let backing: TailSlots

    init(_ row: RawItem) {
        backing = TailSlots.create(minimumCapacity: TailSlots.count) { _ in ModelState(key: row.id) } as! TailSlots
        backing.withUnsafeMutablePointerToElements { slots in
            initializeSlots(slots, with: row)
        }
    }

    /// The slots' values, cast back as a model's accessors do.
    var values: RawItem {
        backing.withUnsafeMutablePointerToElements { slots in
            item(key: backing.header.key, slots: slots)
        }
    }
}

/// Puts a row's six values into six uninitialized `Any` slots.
private func initializeSlots(_ slots: UnsafeMutablePointer<Any>, with row: RawItem) {
    (slots + 0).initialize(to: row.number)
    (slots + 1).initialize(to: row.shortText)
    (slots + 2).initialize(to: row.longText)
    (slots + 3).initialize(to: row.flag)
    (slots + 4).initialize(to: row.value)
    (slots + 5).initialize(to: row.date)
}

/// The row whose values six slots hold, read back as a model's accessors read them.
private func item(key: Int64, slots: UnsafeMutablePointer<Any>) -> RawItem {
    RawItem(
        id: key, number: slotValue(slots + 0, as: Int.self), shortText: slotValue(slots + 1, as: String.self),
        longText: slotValue(slots + 2, as: String.self), flag: slotValue(slots + 3, as: Bool.self),
        value: slotValue(slots + 4, as: Double.self), date: slotValue(slots + 5, as: Date.self))
}

/// The value in an `Any` slot known to hold a `Value` inline, read as SwiftData's accessors read it: a comparison
/// of the slot's type metadata (the word after its three-word buffer) and a load, with no dynamic cast.
private func slotValue<Value>(_ slot: UnsafeMutablePointer<Any>, as type: Value.Type) -> Value {
    let held = UnsafeRawPointer(slot).load(
        fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
    precondition(held == unsafeBitCast(Value.self, to: UnsafeRawPointer.self), "slot holds another type")
    return UnsafeRawPointer(slot).load(as: Value.self)
}

extension Workloads {
    /// Prints W2's raw read next to the same read into objects of each shape, as ratios to the raw read.
    func floor() throws {
        let (db, _, _) = try populated(sizes.rows)
        let select = "SELECT id, number, shortText, longText, flag, value, date FROM items"
        // Each shape reads the rows as the raw baseline does, makes its objects as it goes, then touches them all.
        func read<Object>(_ make: (RawItem) -> Object, _ values: (Object) -> RawItem) -> Double {
            harness.median(setup: {}) {
                blackHole(readRaw(db, select, making: make).reduce(0) { $0 &+ touch(values($1)) })
            }
        }
        let raw = read({ $0 }, { $0 })
        let shapes: [(String, Double)] = [
            ("one object per row, typed stored values", read(PlainObject.init, \.values)),
            ("typed values plus a state object per row", read(TypedObject.init, \.values)),
            ("object, backing object and Any slots per row", read(SlotsObject.init, \.values)),
            ("object and a backing object holding Any slots", read(TailSlotsObject.init, \.values)),
        ]
        print(String(format: "W2 floor: raw read into structures %.2f ms", raw))
        for (shape, milliseconds) in shapes {
            print("  \(shape): " + String(format: "%.2f ms, ratio %.2f", milliseconds, milliseconds / raw))
        }
    }
}
