import CSQLiteBench
import Foundation
import SwiftData

/// One workload's result.
struct Measurement: Codable {
    let workload: String
    let description: String
    let raw_ms: Double
    let ours_ms: Double
    let ratio: Double
    var peak_mb: Double?
    /// What else the workload measured, for the table.
    var note: String?
}

/// The workload sizes: full, or a twentieth with `--quick`.
struct Sizes {
    let rows: Int
    let bigRows: Int
    let parents: Int

    static let full = Sizes(rows: 100_000, bigRows: 1_000_000, parents: 10_000)
    static let quick = Sizes(rows: 5_000, bigRows: 50_000, parents: 500)
}

/// The directory that holds every file of this run; `removeScratchFiles()` deletes it when the run ends.
let scratchRoot = FileManager.default.temporaryDirectory.appendingPathComponent(
    "swiftdata-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

/// A directory for one workload's files, inside `scratchRoot`.
func scratchDirectory() -> URL {
    let url = scratchRoot.appendingPathComponent(UUID().uuidString)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Deletes the files of this run: a full run writes several gigabytes of stores.
func removeScratchFiles() {
    try? FileManager.default.removeItem(at: scratchRoot)
}

func makeContainer<T: PersistentModel>(_ type: T.Type, at url: URL) throws -> ModelContainer {
    try ModelContainer(for: type, configurations: ModelConfiguration(url: url))
}

struct Workloads {
    let sizes: Sizes
    let harness: Harness

    func measure(_ name: String, _ description: String, raw: Double, ours: Double) -> Measurement {
        Measurement(workload: name, description: description, raw_ms: raw, ours_ms: ours, ratio: ours / raw)
    }

    // MARK: - W1 insert

    func insert() throws -> Measurement {
        let count = sizes.rows
        var rawURL = scratchDirectory()
        let raw = harness.median(setup: { rawURL = scratchDirectory() }) {
            let db = RawSQLite(path: rawURL.appendingPathComponent("raw.sqlite").path)
            db.exec(rawItemTable)
            db.exec("BEGIN")
            let insert = db.prepare(
                "INSERT INTO items (number, shortText, longText, flag, value, date) VALUES (?, ?, ?, ?, ?, ?)")
            for number in 0..<count {
                let item = RawItem(
                    id: 0, number: number, shortText: "short text number \(number)",
                    longText: "a longer piece of text that stands for a description, item \(number)",
                    flag: number % 2 == 0, value: Double(number) * 0.5,
                    date: Date(timeIntervalSinceReferenceDate: Double(number))
                )
                sqlite3_bind_int64(insert, 1, Int64(item.number))
                db.bindText(insert, 2, item.shortText)
                db.bindText(insert, 3, item.longText)
                sqlite3_bind_int64(insert, 4, item.flag ? 1 : 0)
                sqlite3_bind_double(insert, 5, item.value)
                sqlite3_bind_double(insert, 6, item.date.timeIntervalSinceReferenceDate)
                sqlite3_step(insert)
                sqlite3_reset(insert)
            }
            sqlite3_finalize(insert)
            db.exec("COMMIT")
        }
        var oursURL = scratchDirectory()
        let ours = try harness.median(setup: { oursURL = scratchDirectory() }) {
            let context = ModelContext(
                try makeContainer(BenchItem.self, at: oursURL.appendingPathComponent("ours.store")))
            for number in 0..<count { context.insert(BenchItem(number: number)) }
            try context.save()
        }
        return measure("W1", "insert \(count) + save", raw: raw, ours: ours)
    }

    // MARK: - Populated stores

    /// A raw table and a store with the same `count` rows.
    func populated(_ count: Int) throws -> (raw: RawSQLite, container: ModelContainer, url: URL) {
        let directory = scratchDirectory()
        let db = RawSQLite(path: directory.appendingPathComponent("raw.sqlite").path)
        db.exec(rawItemTable)
        fillRaw(db, count)
        let url = directory.appendingPathComponent("ours.store")
        let container = try makeContainer(BenchItem.self, at: url)
        let batch = 100_000
        for start in stride(from: 0, to: count, by: batch) {
            let context = ModelContext(container)
            for number in start..<min(count, start + batch) { context.insert(BenchItem(number: number)) }
            try context.save()
        }
        return (db, container, url)
    }

    /// Inserts `count` rows into the raw table, with the values `BenchItem(number:)` gives a model.
    func fillRaw(_ db: RawSQLite, _ count: Int) {
        db.exec("BEGIN")
        let insert = db.prepare(
            "INSERT INTO items (number, shortText, longText, flag, value, date) VALUES (?, ?, ?, ?, ?, ?)")
        for number in 0..<count {
            sqlite3_bind_int64(insert, 1, Int64(number))
            db.bindText(insert, 2, "short text number \(number)")
            db.bindText(insert, 3, "a longer piece of text that stands for a description, item \(number)")
            sqlite3_bind_int64(insert, 4, number % 2 == 0 ? 1 : 0)
            sqlite3_bind_double(insert, 5, Double(number) * 0.5)
            sqlite3_bind_double(insert, 6, Double(number))
            sqlite3_step(insert)
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        db.exec("COMMIT")
    }

    func readRaw(_ db: RawSQLite, _ sql: String, bind: (OpaquePointer) -> Void = { _ in }) -> [RawItem] {
        readRaw(db, sql, bind: bind) { $0 }
    }

    /// Reads the items a query selects, making something of each row as it is read.
    func readRaw<Row>(
        _ db: RawSQLite, _ sql: String, bind: (OpaquePointer) -> Void = { _ in }, making make: (RawItem) -> Row
    ) -> [Row] {
        let statement = db.prepare(sql)
        defer { sqlite3_finalize(statement) }
        bind(statement)
        var rows: [Row] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(
                make(
                    RawItem(
                        id: sqlite3_column_int64(statement, 0), number: Int(sqlite3_column_int64(statement, 1)),
                        shortText: db.text(statement, 2), longText: db.text(statement, 3),
                        flag: sqlite3_column_int64(statement, 4) != 0, value: sqlite3_column_double(statement, 5),
                        date: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 6))
                    )))
        }
        return rows
    }

    // MARK: - W2 fetch all, W5 update, W6 delete

    func fetchUpdateDelete() throws -> [Measurement] {
        let count = sizes.rows
        let (db, container, _) = try populated(count)
        let selectAll = "SELECT id, number, shortText, longText, flag, value, date FROM items"
        let raw2 = try harness.median { blackHole(readRaw(db, selectAll).reduce(0) { $0 &+ touch($1) }) }
        let ours2 = try harness.median {
            let context = ModelContext(container)
            blackHole(try context.fetch(FetchDescriptor<BenchItem>()).reduce(0) { $0 &+ touch($1) })
        }

        if only == "W2" { return [measure("W2", "fetch all \(count), touch every attribute", raw: raw2, ours: ours2)] }
        // Every run adds one to each value, as the models do: writing back an unchanged value would let SQLite
        // skip writing the page, which is less work than ours.
        var rows: [RawItem] = []
        let raw5 = harness.median(setup: { rows = readRaw(db, selectAll) }) {
            db.exec("BEGIN")
            let update = db.prepare("UPDATE items SET value = ? WHERE id = ?")
            for row in rows {
                sqlite3_bind_double(update, 1, row.value + 1)
                sqlite3_bind_int64(update, 2, row.id)
                sqlite3_step(update)
                sqlite3_reset(update)
            }
            sqlite3_finalize(update)
            db.exec("COMMIT")
        }
        var context = ModelContext(container)
        var items: [BenchItem] = []
        let ours5 = try harness.median(setup: {
            context = ModelContext(container)
            items = try context.fetch(FetchDescriptor<BenchItem>())
        }) {
            try changeEveryValue(of: items, in: context)
        }
        items = []
        if only == "W5" {
            return [measure("W5", "change one attribute on \(count) fetched models + save", raw: raw5, ours: ours5)]
        }

        let half = count / 2
        // The raw table is refilled with the rows the store holds: rows of one-letter strings took fewer pages to
        // delete than the store's.
        let raw6 = harness.median(setup: {
            db.exec("DELETE FROM items")
            fillRaw(db, count)
        }) {
            db.exec("DELETE FROM items WHERE number < \(half)")
        }
        var deleteContainer = container
        let ours6 = try harness.median(setup: {
            let (_, fresh, _) = try populated(count)
            deleteContainer = fresh
        }) {
            let context = ModelContext(deleteContainer)
            try context.delete(model: BenchItem.self, where: #Predicate { $0.number < half })
            try context.save()
        }
        return [
            measure("W2", "fetch all \(count), touch every attribute", raw: raw2, ours: ours2),
            measure("W5", "change one attribute on \(count) fetched models + save", raw: raw5, ours: ours5),
            measure("W6", "delete(model:where:) \(half) of \(count)", raw: raw6, ours: ours6),
        ]
    }

    /// W5's measured work, a function of its own so that a profiler can single it out.
    @inline(never)
    func changeEveryValue(of items: [BenchItem], in context: ModelContext) throws {
        for item in items { item.value += 1 }
        try context.save()
    }

    // MARK: - W3 indexed predicate, W4 count, W8 enumerate, W10 open

    func bigStore() throws -> [Measurement] {
        let count = sizes.bigRows
        let (db, container, url) = try populated(count)
        let threshold = count / 2
        let raw3 = try harness.median {
            let rows = readRaw(
                db,
                "SELECT id, number, shortText, longText, flag, value, date FROM items WHERE number > ? ORDER BY number LIMIT 50"
            ) { sqlite3_bind_int64($0, 1, Int64(threshold)) }
            blackHole(rows.reduce(0) { $0 &+ touch($1) })
        }
        let ours3 = try harness.median {
            let context = ModelContext(container)
            var descriptor = FetchDescriptor<BenchItem>(
                predicate: #Predicate { $0.number > threshold }, sortBy: [SortDescriptor(\.number)])
            descriptor.fetchLimit = 50
            blackHole(try context.fetch(descriptor).reduce(0) { $0 &+ touch($1) })
        }
        let raw4 = try harness.median { blackHole(db.integer("SELECT count(*) FROM items WHERE flag = 1")) }
        let ours4 = try harness.median {
            blackHole(
                try ModelContext(container).fetchCount(
                    FetchDescriptor<BenchItem>(predicate: #Predicate { $0.flag == true })))
        }

        // Resident memory sampled every 10,000 rows; the peak above the starting level is what enumerate holds.
        let baseline = residentMegabytes()
        var highest = baseline
        let ours8Start = ContinuousClock().now
        var seen = 0
        var row = 0
        try ModelContext(container).enumerate(FetchDescriptor<BenchItem>()) {
            seen &+= touch($0)
            row += 1
            if row % 10_000 == 0 { highest = max(highest, residentMegabytes()) }
        }
        let ours8 = (ContinuousClock().now - ours8Start)
        let peak = highest - baseline
        // The same work raw: every row read into a struct and every field touched, in batches like enumerate's.
        let raw8Start = ContinuousClock().now
        var lastID: Int64 = 0
        while true {
            let batch = readRaw(
                db,
                "SELECT id, number, shortText, longText, flag, value, date FROM items WHERE id > ? ORDER BY id LIMIT 5000"
            ) { sqlite3_bind_int64($0, 1, lastID) }
            guard let last = batch.last else { break }
            lastID = last.id
            seen &+= batch.reduce(0) { $0 &+ touch($1) }
        }
        let raw8 = ContinuousClock().now - raw8Start
        blackHole(seen)

        let rawPath = db.integer("SELECT 1")
        blackHole(rawPath)
        let raw10 = try harness.median {
            let fresh = RawSQLite(path: url.deletingLastPathComponent().appendingPathComponent("raw.sqlite").path)
            blackHole(fresh.integer("SELECT count(*) FROM sqlite_schema"))
        }
        let ours10 = try harness.median {
            let reopened = try ModelContainer(for: BenchItem.self, configurations: ModelConfiguration(url: url))
            blackHole(reopened)
        }
        var w8 = measure(
            "W8", "enumerate \(count) rows (peak MB above start)",
            raw: milliseconds(raw8), ours: milliseconds(ours8)
        )
        w8.peak_mb = peak
        let w12 = try fetchWithUnsavedChange(container, threshold: threshold, rawMilliseconds: raw3)
        return [
            measure("W3", "indexed predicate, sorted, limit 50, over \(count)", raw: raw3, ours: ours3), w12,
            measure("W4", "fetchCount with a predicate over \(count)", raw: raw4, ours: ours4),
            w8,
            measure("W10", "open a container on a \(count)-row store", raw: raw10, ours: ours10),
        ]
    }

    // MARK: - W7 relationships

    func relationships() throws -> [Measurement] {
        let parents = sizes.parents
        let directory = scratchDirectory()
        let db = RawSQLite(path: directory.appendingPathComponent("raw.sqlite").path)
        db.exec(rawParentChildTables)
        db.exec("BEGIN")
        for parent in 0..<parents {
            db.exec("INSERT INTO parents (id, name) VALUES (\(parent + 1), 'p\(parent)')")
            for child in 0..<10 { db.exec("INSERT INTO children (value, parent) VALUES (\(child), \(parent + 1))") }
        }
        db.exec("COMMIT")
        let container = try makeContainer(BenchParent.self, at: directory.appendingPathComponent("ours.store"))
        let setup = ModelContext(container)
        for parent in 0..<parents {
            let model = BenchParent(name: "p\(parent)")
            setup.insert(model)
            model.children = (0..<10).map { BenchChild(value: $0) }
        }
        try setup.save()

        // The same work raw: every parent read into a structure holding its children's structures, then every
        // child touched through its parent.
        let raw = try harness.median {
            var parents: [RawParent] = []
            var positions: [Int64: Int] = [:]
            let parentStatement = db.prepare("SELECT id, name FROM parents")
            while sqlite3_step(parentStatement) == SQLITE_ROW {
                let id = sqlite3_column_int64(parentStatement, 0)
                positions[id] = parents.count
                parents.append(RawParent(id: id, name: db.text(parentStatement, 1), children: []))
            }
            sqlite3_finalize(parentStatement)
            let childStatement = db.prepare("SELECT id, value, parent FROM children ORDER BY parent")
            var lastParent: Int64 = -1
            var position = 0
            while sqlite3_step(childStatement) == SQLITE_ROW {
                let parent = sqlite3_column_int64(childStatement, 2)
                if parent != lastParent {
                    lastParent = parent
                    position = positions[parent]!
                }
                parents[position].children.append(
                    RawChild(
                        id: sqlite3_column_int64(childStatement, 0), value: Int(sqlite3_column_int64(childStatement, 1))
                    ))
            }
            sqlite3_finalize(childStatement)
            var total = 0
            for parent in parents { for child in parent.children { total &+= child.value } }
            blackHole(total)
        }
        let lazy = try harness.median {
            let context = ModelContext(container)
            var total = 0
            for parent in try context.fetch(FetchDescriptor<BenchParent>()) {
                for child in parent.children { total &+= child.value }
            }
            blackHole(total)
        }
        let prefetched = try harness.median {
            let context = ModelContext(container)
            var descriptor = FetchDescriptor<BenchParent>()
            descriptor.relationshipKeyPathsForPrefetching = [\.children]
            var total = 0
            for parent in try context.fetch(descriptor) { for child in parent.children { total &+= child.value } }
            blackHole(total)
        }
        return [
            measure("W7a", "\(parents) parents × 10 children, lazy", raw: raw, ours: lazy),
            measure("W7b", "\(parents) parents × 10 children, prefetched", raw: raw, ours: prefetched),
        ]
    }

    // MARK: - W9 upserts

    func upserts() throws -> Measurement {
        let count = sizes.rows
        let half = count / 2
        var db = RawSQLite(path: scratchDirectory().appendingPathComponent("raw.sqlite").path)
        let raw = harness.median(setup: {
            db = RawSQLite(path: scratchDirectory().appendingPathComponent("raw.sqlite").path)
            db.exec("CREATE TABLE uniques (id INTEGER PRIMARY KEY, key INTEGER NOT NULL UNIQUE, text TEXT NOT NULL)")
            db.exec("BEGIN")
            for key in 0..<half { db.exec("INSERT INTO uniques (key, text) VALUES (\(key), 'old')") }
            db.exec("COMMIT")
        }) {
            db.exec("BEGIN")
            let upsert = db.prepare(
                "INSERT INTO uniques (key, text) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET text = excluded.text")
            for key in (half / 2)..<(half / 2 + count) {
                sqlite3_bind_int64(upsert, 1, Int64(key))
                db.bindText(upsert, 2, "new")
                sqlite3_step(upsert)
                sqlite3_reset(upsert)
            }
            sqlite3_finalize(upsert)
            db.exec("COMMIT")
        }
        var container = try makeContainer(BenchUnique.self, at: scratchDirectory().appendingPathComponent("ours.store"))
        let ours = try harness.median(setup: {
            container = try makeContainer(BenchUnique.self, at: scratchDirectory().appendingPathComponent("ours.store"))
            let context = ModelContext(container)
            for key in 0..<half { context.insert(BenchUnique(key: key, text: "old")) }
            try context.save()
        }) {
            let context = ModelContext(container)
            for key in (half / 2)..<(half / 2 + count) { context.insert(BenchUnique(key: key, text: "new")) }
            try context.save()
        }
        return measure("W9", "\(count) inserts with .unique, half colliding", raw: raw, ours: ours)
    }
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

/// Reads every attribute of a model, as an app touching its data would.
func touch(_ item: BenchItem) -> Int {
    item.number &+ item.shortText.utf8.count &+ item.longText.utf8.count &+ (item.flag ? 1 : 0) &+ Int(item.value)
        &+ Int(item.date.timeIntervalSinceReferenceDate)
}

func touch(_ item: RawItem) -> Int {
    item.number &+ item.shortText.utf8.count &+ item.longText.utf8.count &+ (item.flag ? 1 : 0) &+ Int(item.value)
        &+ Int(item.date.timeIntervalSinceReferenceDate)
}
