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
private final class StateObject {
    var key: Int64
    var flags = 0
    weak var context: AnyObject?
    var reserved: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init(key: Int64) { self.key = key }
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
        (slots + 0).initialize(to: row.number)
        (slots + 1).initialize(to: row.shortText)
        (slots + 2).initialize(to: row.longText)
        (slots + 3).initialize(to: row.flag)
        (slots + 4).initialize(to: row.value)
        (slots + 5).initialize(to: row.date)
    }

    deinit {
        slots.deinitialize(count: 6)
        slots.deallocate()
    }

    /// The slots' values, cast back as a model's accessors do.
    var values: RawItem {
        RawItem(
            id: backing.key, number: slots[0] as! Int, shortText: slots[1] as! String, longText: slots[2] as! String,
            flag: slots[3] as! Bool, value: slots[4] as! Double, date: slots[5] as! Date)
    }
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
        ]
        print(String(format: "W2 floor: raw read into structures %.2f ms", raw))
        for (shape, milliseconds) in shapes {
            print("  \(shape): " + String(format: "%.2f ms, ratio %.2f", milliseconds, milliseconds / raw))
        }
    }
}
