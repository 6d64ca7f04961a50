import CSQLiteBench
import Foundation

// `swiftdata-bench --floor`: what W2 (read 100,000 rows and touch every value) costs when the rows become objects
// of a few shapes, with no SwiftData at all. Each shape is the skeleton of a way to keep a model's values; its
// ratio to the raw read is the least a persistence framework built that way can reach, before it tracks anything.

/// A model whose values are typed stored properties of its own object.
private final class PlainObject {
    var number: Int
    var shortText: String
    var longText: String
    var flag: Bool
    var value: Double
    var date: Date

    init(_ row: RawItem) {
        number = row.number
        shortText = row.shortText
        longText = row.longText
        flag = row.flag
        value = row.value
        date = row.date
    }
}

/// What a model needs besides its values: identity, context and change tracking, about the size of SwiftData's
/// backing data besides its slots.
private struct ObjectState {
    var key: Int64
    var flags = 0
    var reserved: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

/// The state of a model as an object of its own, as SwiftData's backing data is.
private final class StateObject {
    var state: ObjectState
    weak var context: AnyObject?

    init(key: Int64) { state = ObjectState(key: key) }
}

/// A model with typed stored values and a state object beside it: two objects per row.
private final class TypedObject {
    let state: StateObject
    var number: Int
    var shortText: String
    var longText: String
    var flag: Bool
    var value: Double
    var date: Date

    init(_ row: RawItem) {
        state = StateObject(key: row.id)
        number = row.number
        shortText = row.shortText
        longText = row.longText
        flag = row.flag
        value = row.value
        date = row.date
    }

    func touch() -> Int {
        number &+ shortText.utf8.count &+ longText.utf8.count &+ (flag ? 1 : 0) &+ Int(value)
            &+ Int(date.timeIntervalSinceReferenceDate)
    }
}

/// A model, its backing object and a separately allocated buffer of `Any` slots: SwiftData's shape today, three
/// allocations per row.
private final class SlotsObject {
    let backing: SlotsBacking

    init(_ row: RawItem) {
        backing = SlotsBacking(key: row.id)
        let slots = backing.slots
        (slots + 0).initialize(to: row.number)
        (slots + 1).initialize(to: row.shortText)
        (slots + 2).initialize(to: row.longText)
        (slots + 3).initialize(to: row.flag)
        (slots + 4).initialize(to: row.value)
        (slots + 5).initialize(to: row.date)
    }

    func touch() -> Int {
        let slots = backing.slots
        return (slots[0] as! Int) &+ (slots[1] as! String).utf8.count &+ (slots[2] as! String).utf8.count
            &+ ((slots[3] as! Bool) ? 1 : 0) &+ Int(slots[4] as! Double)
            &+ Int((slots[5] as! Date).timeIntervalSinceReferenceDate)
    }
}

/// The backing object of `SlotsObject`: the state and six slots.
private final class SlotsBacking {
    let slots = UnsafeMutablePointer<Any>.allocate(capacity: 6)
    var state: ObjectState
    weak var context: AnyObject?

    init(key: Int64) { state = ObjectState(key: key) }

    deinit {
        slots.deinitialize(count: 6)
        slots.deallocate()
    }
}

extension Workloads {
    /// Prints W2's raw read next to the same read into objects of each shape, as ratios to the raw read.
    func floor() throws {
        let (db, _, _) = try populated(sizes.rows)
        let select = "SELECT id, number, shortText, longText, flag, value, date FROM items"
        func touch(_ row: RawItem) -> Int {
            row.number &+ row.shortText.utf8.count &+ row.longText.utf8.count &+ (row.flag ? 1 : 0) &+ Int(row.value)
                &+ Int(row.date.timeIntervalSinceReferenceDate)
        }
        func touch(_ object: PlainObject) -> Int {
            object.number &+ object.shortText.utf8.count &+ object.longText.utf8.count &+ (object.flag ? 1 : 0)
                &+ Int(object.value) &+ Int(object.date.timeIntervalSinceReferenceDate)
        }
        // Each shape reads the rows as the raw baseline does and makes its objects from them as it goes.
        func read<Object>(_ make: (RawItem) -> Object, _ touchAll: ([Object]) -> Int) -> Double {
            harness.median(setup: {}) {
                let statement = db.prepare(select)
                defer { sqlite3_finalize(statement) }
                var objects: [Object] = []
                while sqlite3_step(statement) == SQLITE_ROW {
                    objects.append(
                        make(
                            RawItem(
                                id: sqlite3_column_int64(statement, 0), number: Int(sqlite3_column_int64(statement, 1)),
                                shortText: db.text(statement, 2), longText: db.text(statement, 3),
                                flag: sqlite3_column_int64(statement, 4) != 0,
                                value: sqlite3_column_double(statement, 5),
                                date: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 6)))))
                }
                blackHole(touchAll(objects))
            }
        }
        let raw = read({ $0 }) { $0.reduce(0) { $0 &+ touch($1) } }
        let shapes: [(String, Double)] = [
            ("one object per row, typed stored values", read(PlainObject.init) { $0.reduce(0) { $0 &+ touch($1) } }),
            (
                "typed values plus a state object per row",
                read(TypedObject.init) { $0.reduce(0) { $0 &+ $1.touch() } }
            ),
            (
                "object, backing object and Any slots per row",
                read(SlotsObject.init) { $0.reduce(0) { $0 &+ $1.touch() } }
            ),
        ]
        print(String(format: "W2 floor: raw read into structures %.2f ms", raw))
        for (shape, milliseconds) in shapes {
            print("  \(shape): " + String(format: "%.2f ms, ratio %.2f", milliseconds, milliseconds / raw))
        }
    }
}
