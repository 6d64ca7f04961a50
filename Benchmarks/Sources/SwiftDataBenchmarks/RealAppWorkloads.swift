import CSQLiteBench
import Foundation
import SwiftData

/// The paths real apps take off the fast ones: a fetch while the context holds an unsaved change, a localized sort,
/// paging with an offset, an entity of richer attribute kinds, and the memory a big fetch holds. Each runs next to
/// raw SQLite doing the same work.
extension Workloads {
    // MARK: - W12 fetch with an unsaved change

    /// W3's fetch (indexed predicate, sorted, limit 50) while the context holds one unsaved change of the entity;
    /// the raw baseline is W3's.
    func fetchWithUnsavedChange(_ container: ModelContainer, threshold: Int, rawMilliseconds: Double) throws
        -> Measurement
    {
        var context = ModelContext(container)
        let ours = try harness.median(setup: {
            context = ModelContext(container)
            var first = FetchDescriptor<BenchItem>(sortBy: [SortDescriptor(\.number)])
            first.fetchLimit = 1
            try context.fetch(first).first?.value += 1
        }) {
            var descriptor = FetchDescriptor<BenchItem>(
                predicate: #Predicate { $0.number > threshold }, sortBy: [SortDescriptor(\.number)])
            descriptor.fetchLimit = 50
            blackHole(try context.fetch(descriptor).reduce(0) { $0 &+ touch($1) })
        }
        return measure(
            "W12", "W3's fetch with one unsaved change in the context", raw: rawMilliseconds, ours: ours)
    }

    // MARK: - W13 localized sort, W14 paging, W16 memory

    func realAppPaths() throws -> [Measurement] {
        let count = sizes.rows
        let (db, container, _) = try populated(count)

        // W13: the list sort Apple teaches, limit 50. Raw sorts with a collation that calls the same comparison.
        sqlite3_create_collation_v2(
            db.db, "LOCALIZED_STANDARD", SQLITE_UTF8, nil,
            { _, length1, bytes1, length2, bytes2 in
                let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(length1)), as: UTF8.self)
                let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(length2)), as: UTF8.self)
                return Int32(a.localizedStandardCompare(b).rawValue)
            }, nil)
        let raw13 = try harness.median {
            let rows = readRaw(
                db,
                "SELECT id, number, shortText, longText, flag, value, date FROM items "
                    + "ORDER BY shortText COLLATE LOCALIZED_STANDARD, id LIMIT 50")
            blackHole(rows.reduce(0) { $0 &+ touch($1) })
        }
        let ours13 = try harness.median {
            var descriptor = FetchDescriptor<BenchItem>(
                sortBy: [SortDescriptor(\.shortText, comparator: .localizedStandard)])
            descriptor.fetchLimit = 50
            blackHole(try ModelContext(container).fetch(descriptor).reduce(0) { $0 &+ touch($1) })
        }

        // W14: every row, 100 at a time, by offset, sorted by an indexed number.
        let pageSize = 100
        let raw14 = try harness.median {
            let statement = db.prepare(
                "SELECT id, number, shortText, longText, flag, value, date FROM items ORDER BY number LIMIT ? OFFSET ?")
            defer { sqlite3_finalize(statement) }
            var seen = 0
            for offset in stride(from: 0, to: count, by: pageSize) {
                sqlite3_reset(statement)
                sqlite3_bind_int64(statement, 1, Int64(pageSize))
                sqlite3_bind_int64(statement, 2, Int64(offset))
                while sqlite3_step(statement) == SQLITE_ROW {
                    let item = RawItem(
                        id: sqlite3_column_int64(statement, 0), number: Int(sqlite3_column_int64(statement, 1)),
                        shortText: db.text(statement, 2), longText: db.text(statement, 3),
                        flag: sqlite3_column_int64(statement, 4) != 0, value: sqlite3_column_double(statement, 5),
                        date: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 6)))
                    seen &+= touch(item)
                }
            }
            blackHole(seen)
        }
        let ours14 = try harness.median {
            let context = ModelContext(container)
            var seen = 0
            for offset in stride(from: 0, to: count, by: pageSize) {
                var descriptor = FetchDescriptor<BenchItem>(sortBy: [SortDescriptor(\.number)])
                descriptor.fetchOffset = offset
                descriptor.fetchLimit = pageSize
                seen &+= try context.fetch(descriptor).reduce(0) { $0 &+ touch($1) }
            }
            blackHole(seen)
        }

        // W16: the heap a fetch of every row holds while its results are alive, against raw structs.
        let selectAll = "SELECT id, number, shortText, longText, flag, value, date FROM items"
        let rawHeap = heapHeld { readRaw(db, selectAll) }
        let oursHeap = try heapHeld { try ModelContext(container).fetch(FetchDescriptor<BenchItem>()) }
        var w16 = measure(
            "W16", "heap held by a fetch of \(count) (MB in the ms columns)", raw: rawHeap, ours: oursHeap)
        w16.note = String(format: "raw %.1f MB, ours %.1f MB", rawHeap, oursHeap)

        return [
            measure("W13", ".localizedStandard sort, limit 50, over \(count)", raw: raw13, ours: ours13),
            measure("W14", "page through \(count) by \(pageSize) with fetchOffset", raw: raw14, ours: ours14),
            w16,
        ]
    }

    /// The heap, in megabytes, that what `make` returns holds while it is alive (glibc's count of bytes in use).
    private func heapHeld<Result>(_ make: () throws -> Result) rethrows -> Double {
        let before = csqlitebench_heap_in_use()
        let result = try make()
        let after = csqlitebench_heap_in_use()
        blackHole(result)
        return Double(Int(after) - Int(before)) / 1_048_576
    }

    // MARK: - W15 rich entity

    /// Fetches every row of an entity with an enumeration, an optional, a `Codable` struct and a to-one
    /// relationship, touching each (the owner's name included); raw reads the same rows, joined to their owners,
    /// into structs.
    func richEntity() throws -> Measurement {
        let count = sizes.rows
        let owners = max(count / 100, 1)
        let directory = scratchDirectory()
        let db = RawSQLite(path: directory.appendingPathComponent("raw.sqlite").path)
        db.exec(rawRichTables)
        db.exec("BEGIN")
        let insertOwner = db.prepare("INSERT INTO owners (id, name) VALUES (?, ?)")
        for owner in 0..<owners {
            sqlite3_bind_int64(insertOwner, 1, Int64(owner + 1))
            db.bindText(insertOwner, 2, "owner \(owner)")
            sqlite3_step(insertOwner)
            sqlite3_reset(insertOwner)
        }
        sqlite3_finalize(insertOwner)
        let insert = db.prepare(
            "INSERT INTO rich (number, kind, note, width, height, owner) VALUES (?, ?, ?, ?, ?, ?)")
        for number in 0..<count {
            let model = (kind: number % 3, note: number % 4 == 0 ? nil : "note \(number)")
            sqlite3_bind_int64(insert, 1, Int64(number))
            sqlite3_bind_int64(insert, 2, Int64(model.kind))
            if let note = model.note { db.bindText(insert, 3, note) } else { sqlite3_bind_null(insert, 3) }
            sqlite3_bind_double(insert, 4, Double(number % 100))
            sqlite3_bind_double(insert, 5, Double(number % 37))
            sqlite3_bind_int64(insert, 6, Int64(number % owners + 1))
            sqlite3_step(insert)
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        db.exec("COMMIT")

        let container = try ModelContainer(
            for: BenchRich.self, BenchOwner.self,
            configurations: ModelConfiguration(url: directory.appendingPathComponent("ours.store")))
        let setup = ModelContext(container)
        let ownerModels = (0..<owners).map { BenchOwner(name: "owner \($0)") }
        for owner in ownerModels { setup.insert(owner) }
        for number in 0..<count { setup.insert(BenchRich(number: number, owner: ownerModels[number % owners])) }
        try setup.save()

        func touch(_ row: RawRich) -> Int {
            row.number &+ row.kind.rawValue &+ (row.note?.utf8.count ?? 0) &+ Int(row.size.width + row.size.height)
                &+ (row.ownerName?.utf8.count ?? 0)
        }
        func touch(_ model: BenchRich) -> Int {
            model.number &+ model.kind.rawValue &+ (model.note?.utf8.count ?? 0)
                &+ Int(model.size.width + model.size.height) &+ (model.owner?.name.utf8.count ?? 0)
        }
        let raw = try harness.median {
            let statement = db.prepare(
                """
                SELECT rich.id, number, kind, note, width, height, owners.name FROM rich
                LEFT JOIN owners ON owners.id = rich.owner
                """)
            defer { sqlite3_finalize(statement) }
            var rows: [RawRich] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                rows.append(
                    RawRich(
                        id: sqlite3_column_int64(statement, 0), number: Int(sqlite3_column_int64(statement, 1)),
                        kind: BenchKind(rawValue: Int(sqlite3_column_int64(statement, 2))) ?? .small,
                        note: sqlite3_column_type(statement, 3) == SQLITE_NULL ? nil : db.text(statement, 3),
                        size: BenchSize(
                            width: sqlite3_column_double(statement, 4), height: sqlite3_column_double(statement, 5)),
                        ownerName: sqlite3_column_type(statement, 6) == SQLITE_NULL ? nil : db.text(statement, 6)))
            }
            blackHole(rows.reduce(0) { $0 &+ touch($1) })
        }
        let ours = try harness.median {
            let context = ModelContext(container)
            blackHole(try context.fetch(FetchDescriptor<BenchRich>()).reduce(0) { $0 &+ touch($1) })
        }
        return measure(
            "W15", "fetch \(count) with an enum, optional, Codable struct, to-one (touch all)", raw: raw, ours: ours)
    }

    // MARK: - W17 one owner's many members

    /// Gives one parent `sizes.rows / 5` children through each child's to-one side (the inverse to-many keeps up),
    /// then saves; raw inserts the parent and the children's rows, each naming the parent.
    func oneParentManyChildren() throws -> Measurement {
        let count = sizes.rows / 5
        var db: RawSQLite?
        let raw = harness.median(setup: {
            db = RawSQLite(path: scratchDirectory().appendingPathComponent("raw.sqlite").path)
            db?.exec(rawParentChildTables)
        }) {
            guard let db else { return }
            db.exec("BEGIN")
            db.exec("INSERT INTO parents (id, name) VALUES (1, 'parent')")
            let insert = db.prepare("INSERT INTO children (value, parent) VALUES (?, 1)")
            for value in 0..<count {
                sqlite3_bind_int64(insert, 1, Int64(value))
                sqlite3_step(insert)
                sqlite3_reset(insert)
            }
            sqlite3_finalize(insert)
            db.exec("COMMIT")
        }
        var container: ModelContainer?
        let ours = try harness.median(setup: {
            container = try ModelContainer(
                for: BenchParent.self, BenchChild.self,
                configurations: ModelConfiguration(url: scratchDirectory().appendingPathComponent("ours.store")))
        }) {
            guard let container else { return }
            let context = ModelContext(container)
            let parent = BenchParent(name: "parent")
            context.insert(parent)
            for value in 0..<count {
                let child = BenchChild(value: value)
                child.parent = parent
            }
            try context.save()
            blackHole(parent.children.count)
        }
        return measure("W17", "one parent given \(count) children by child.parent + save", raw: raw, ours: ours)
    }
}
