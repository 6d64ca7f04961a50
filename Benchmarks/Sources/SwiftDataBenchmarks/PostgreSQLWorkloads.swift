import CLibPQBench
import Foundation
import SwiftData
import SwiftDataPostgreSQL

/// The workloads on the PostgreSQL store, each next to raw libpq doing the same work on a table of the same shape,
/// in databases of their own on one server. Named `PG-W1`… after the SQLite workloads they mirror.
struct PostgreSQLWorkloads {
    let server: URL
    let sizes: Sizes
    let harness: Harness
    /// The databases made, dropped when the run ends.
    private let made = DatabaseList()

    init(server: URL, sizes: Sizes, harness: Harness) {
        self.server = server
        self.sizes = sizes
        self.harness = harness
    }

    private final class DatabaseList: @unchecked Sendable {
        // @unchecked: the workloads run on one thread.
        var urls: [URL] = []
    }

    /// The raw table: the columns and types the store gives `BenchItem`.
    private static let rawTable = """
        CREATE TABLE items (id bigserial PRIMARY KEY, number bigint NOT NULL, "shortText" text COLLATE "C" NOT NULL,
        "longText" text COLLATE "C" NOT NULL, flag boolean NOT NULL, value double precision NOT NULL,
        date double precision NOT NULL);
        CREATE INDEX items_number ON items (number)
        """

    private static let insertItem =
        "INSERT INTO items (number, \"shortText\", \"longText\", flag, value, date) VALUES ($1, $2, $3, $4, $5, $6)"

    private static let selectItems = "SELECT id, number, \"shortText\", \"longText\", flag, value, date FROM items"

    private func database() -> URL {
        let url = RawPostgreSQL.makeDatabase(on: server)
        made.urls.append(url)
        return url
    }

    /// Drops the run's databases.
    func removeDatabases() {
        RawPostgreSQL.dropDatabases(made.urls, on: server)
        made.urls = []
    }

    private func container<T: PersistentModel>(_ type: T.Type, _ url: URL) throws -> ModelContainer {
        try ModelContainer(for: type, configurations: PostgreSQLConfiguration(url: url))
    }

    private func measure(_ name: String, _ description: String, raw: Double, ours: Double) -> Measurement {
        Measurement(workload: name, description: description, raw_ms: raw, ours_ms: ours, ratio: ours / raw)
    }

    /// The parameters of the raw row `BenchItem(number:)` makes.
    private static func itemParameters(_ number: Int) -> [String] {
        [
            String(number), "short text number \(number % 1_000_000)",
            "a longer piece of text that stands for a description, item \(number)", number % 2 == 0 ? "t" : "f",
            "\(Double(number) * 0.5)", "\(Double(number))",
        ]
    }

    /// Inserts rows in one transaction, as a careful programmer would: 1,000 rows per prepared statement, as many
    /// as the store puts in one statement.
    private func fillRaw(_ db: RawPostgreSQL, _ count: Int) {
        let rowsPerStatement = 1_000
        let values = (0..<rowsPerStatement).map { row in
            "(" + (1...6).map { "$\(row * 6 + $0)" }.joined(separator: ", ") + ")"
        }
        db.exec("BEGIN")
        db.prepare("fill", Self.insertItem + ", " + values.dropFirst().joined(separator: ", "), parameters: 6_000)
        var start = 0
        while start + rowsPerStatement <= count {
            db.run("fill", (start..<start + rowsPerStatement).flatMap(Self.itemParameters)) { _ in () }
            start += rowsPerStatement
        }
        if start < count {
            db.prepare("rest", Self.insertItem, parameters: 6)
            for number in start..<count { db.run("rest", Self.itemParameters(number)) { _ in () } }
            db.exec("DEALLOCATE rest")
        }
        db.exec("COMMIT; DEALLOCATE fill")
    }

    private func fillOurs(_ container: ModelContainer, _ count: Int) throws {
        let context = ModelContext(container)
        for number in 0..<count { context.insert(BenchItem(number: number)) }
        try context.save()
    }

    /// Every workload, in order.
    func all() throws -> [Measurement] {
        defer { removeDatabases() }
        let (indexed, counted) = try indexedAndCount()
        return try [insert()] + fetchUpdateDelete() + [indexed, counted] + relationships() + enumerateAndOpen()
            + [upserts()]
    }

    // MARK: - PG-W1 insert

    func insert() throws -> Measurement {
        let count = sizes.rows
        var rawDB = RawPostgreSQL(url: database())
        let raw = harness.median(setup: {
            rawDB = RawPostgreSQL(url: database())
            rawDB.exec(Self.rawTable)
        }) {
            fillRaw(rawDB, count)
        }
        // As the raw table is, the store is created before the measured part.
        var store = try container(BenchItem.self, database())
        let ours = try harness.median(setup: { store = try container(BenchItem.self, database()) }) {
            try fillOurs(store, count)
        }
        return measure("PG-W1", "insert \(count) + save", raw: raw, ours: ours)
    }

    // MARK: - PG-W2 fetch all, PG-W5 update, PG-W6 delete

    func fetchUpdateDelete() throws -> [Measurement] {
        let count = sizes.rows
        let rawDB = RawPostgreSQL(url: database())
        rawDB.exec(Self.rawTable)
        fillRaw(rawDB, count)
        let store = try container(BenchItem.self, database())
        try fillOurs(store, count)

        rawDB.prepare("all", Self.selectItems, parameters: 0)
        let rawFetch = try harness.median {
            blackHole(rawDB.run("all", [], RawPostgreSQL.items).reduce(0) { $0 &+ touch($1) })
        }
        let oursFetch = try harness.median {
            let context = ModelContext(store)
            blackHole(try context.fetch(FetchDescriptor<BenchItem>()).reduce(0) { $0 &+ touch($1) })
        }

        var rows: [RawItem] = []
        rawDB.prepare("update", "UPDATE items SET value = $1 WHERE id = $2", parameters: 2)
        let rawUpdate = harness.median(setup: { rows = rawDB.run("all", [], RawPostgreSQL.items) }) {
            rawDB.exec("BEGIN")
            for row in rows { rawDB.run("update", ["\(row.value + 1)", String(row.id)]) { _ in () } }
            rawDB.exec("COMMIT")
        }
        var context = ModelContext(store)
        var items: [BenchItem] = []
        let oursUpdate = try harness.median(setup: {
            context = ModelContext(store)
            items = try context.fetch(FetchDescriptor<BenchItem>())
        }) {
            for item in items { item.value += 1 }
            try context.save()
        }
        items = []

        let half = count / 2
        let rawDelete = harness.median(setup: {
            rawDB.exec("TRUNCATE items")
            fillRaw(rawDB, count)
        }) {
            rawDB.exec("DELETE FROM items WHERE number < \(half)")
        }
        var deleteStore = store
        let oursDelete = try harness.median(setup: {
            deleteStore = try container(BenchItem.self, database())
            try fillOurs(deleteStore, count)
        }) {
            let context = ModelContext(deleteStore)
            try context.delete(model: BenchItem.self, where: #Predicate { $0.number < half })
            try context.save()
        }
        return [
            measure("PG-W2", "fetch all \(count), touch every attribute", raw: rawFetch, ours: oursFetch),
            measure(
                "PG-W5", "change one attribute on \(count) fetched models + save", raw: rawUpdate, ours: oursUpdate),
            measure("PG-W6", "delete(model:where:) \(half) of \(count)", raw: rawDelete, ours: oursDelete),
        ]
    }

    // MARK: - PG-W3 indexed predicate, PG-W4 count

    func indexedAndCount() throws -> (Measurement, Measurement) {
        let count = sizes.rows
        let rawDB = RawPostgreSQL(url: database())
        rawDB.exec(Self.rawTable)
        fillRaw(rawDB, count)
        let store = try container(BenchItem.self, database())
        try fillOurs(store, count)
        let threshold = count / 2
        rawDB.prepare("page", Self.selectItems + " WHERE number > $1 ORDER BY number LIMIT 50", parameters: 1)
        let raw3 = try harness.median {
            blackHole(rawDB.run("page", [String(threshold)], RawPostgreSQL.items).reduce(0) { $0 &+ touch($1) })
        }
        let ours3 = try harness.median {
            var descriptor = FetchDescriptor<BenchItem>(
                predicate: #Predicate { $0.number > threshold }, sortBy: [SortDescriptor(\.number)])
            descriptor.fetchLimit = 50
            let context = ModelContext(store)
            blackHole(try context.fetch(descriptor).reduce(0) { $0 &+ touch($1) })
        }
        rawDB.prepare("count", "SELECT count(*) FROM items WHERE flag AND number > $1", parameters: 1)
        let raw4 = try harness.median {
            blackHole(rawDB.run("count", [String(threshold)]) { String(cString: PQgetvalue($0, 0, 0)) })
        }
        let ours4 = try harness.median {
            blackHole(
                try ModelContext(store).fetchCount(
                    FetchDescriptor<BenchItem>(predicate: #Predicate { $0.flag && $0.number > threshold })))
        }
        return (
            measure("PG-W3", "indexed predicate, sorted, limit 50 of \(count)", raw: raw3, ours: ours3),
            measure("PG-W4", "fetchCount with a predicate over \(count)", raw: raw4, ours: ours4)
        )
    }

    // MARK: - PG-W7 relationships

    func relationships() throws -> [Measurement] {
        let parents = sizes.parents
        let rawDB = RawPostgreSQL(url: database())
        rawDB.exec(
            "CREATE TABLE parents (id bigint PRIMARY KEY, name text NOT NULL); "
                + "CREATE TABLE children (id bigserial PRIMARY KEY, value bigint NOT NULL, parent bigint); "
                + "CREATE INDEX children_parent ON children (parent); "
                + "INSERT INTO parents SELECT p, 'p' || (p - 1) FROM generate_series(1, \(parents)) AS p; "
                + "INSERT INTO children (value, parent) SELECT c, p FROM generate_series(1, \(parents)) AS p, "
                + "generate_series(0, 9) AS c")
        let store = try container(BenchParent.self, database())
        let setup = ModelContext(store)
        for parent in 0..<parents {
            let model = BenchParent(name: "p\(parent)")
            setup.insert(model)
            model.children = (0..<10).map { BenchChild(value: $0) }
        }
        try setup.save()
        rawDB.prepare("parents", "SELECT id, name FROM parents", parameters: 0)
        rawDB.prepare("children", "SELECT id, value, parent FROM children ORDER BY parent", parameters: 0)
        // Every parent read into a structure holding its children's structures, then every child touched.
        let raw = try harness.median {
            var parents: [RawParent] = []
            var positions: [Int64: Int] = [:]
            rawDB.run("parents", []) { result in
                for row in 0..<PQntuples(result) {
                    let id = Int64(String(cString: PQgetvalue(result, row, 0))) ?? 0
                    positions[id] = parents.count
                    parents.append(RawParent(id: id, name: String(cString: PQgetvalue(result, row, 1)), children: []))
                }
            }
            rawDB.run("children", []) { result in
                for row in 0..<PQntuples(result) {
                    let parent = Int64(String(cString: PQgetvalue(result, row, 2))) ?? 0
                    guard let position = positions[parent] else { continue }
                    parents[position].children.append(
                        RawChild(
                            id: Int64(String(cString: PQgetvalue(result, row, 0))) ?? 0,
                            value: Int(String(cString: PQgetvalue(result, row, 1))) ?? 0))
                }
            }
            var total = 0
            for parent in parents { for child in parent.children { total &+= child.value } }
            blackHole(total)
        }
        // The context lives through the loop, as an app's does: models of a released context load one by one.
        let lazy = try harness.median {
            let context = ModelContext(store)
            var total = 0
            for parent in try context.fetch(FetchDescriptor<BenchParent>()) {
                for child in parent.children { total &+= child.value }
            }
            blackHole(total)
        }
        let prefetched = try harness.median {
            var descriptor = FetchDescriptor<BenchParent>()
            descriptor.relationshipKeyPathsForPrefetching = [\.children]
            let context = ModelContext(store)
            var total = 0
            for parent in try context.fetch(descriptor) {
                for child in parent.children { total &+= child.value }
            }
            blackHole(total)
        }
        return [
            measure("PG-W7a", "\(parents) parents × 10 children, lazy", raw: raw, ours: lazy),
            measure("PG-W7b", "\(parents) parents × 10 children, prefetched", raw: raw, ours: prefetched),
        ]
    }

    // MARK: - PG-W8 enumerate, PG-W10 open

    func enumerateAndOpen() throws -> [Measurement] {
        let count = sizes.rows
        let rawDB = RawPostgreSQL(url: database())
        rawDB.exec(Self.rawTable)
        fillRaw(rawDB, count)
        let url = database()
        try fillOurs(try container(BenchItem.self, url), count)
        // Every row read into a struct and every field touched, in batches of 5,000 as enumerate reads them.
        rawDB.prepare("batch", Self.selectItems + " WHERE id > $1 ORDER BY id LIMIT 5000", parameters: 1)
        let raw8 = try harness.median {
            var lastID: Int64 = 0
            var seen = 0
            while true {
                let batch = rawDB.run("batch", [String(lastID)], RawPostgreSQL.items)
                guard let last = batch.last else { break }
                lastID = last.id
                seen &+= batch.reduce(0) { $0 &+ touch($1) }
            }
            blackHole(seen)
        }
        let store = try container(BenchItem.self, url)
        let ours8 = try harness.median {
            var seen = 0
            try ModelContext(store).enumerate(FetchDescriptor<BenchItem>()) { seen &+= touch($0) }
            blackHole(seen)
        }
        // Opening: connecting and reading what says the tables are as expected.
        var rawOpened: [RawPostgreSQL] = []
        let raw10 = try harness.median {
            let fresh = RawPostgreSQL(url: rawDB.url)
            fresh.exec("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
            rawOpened.append(fresh)
        }
        blackHole(rawOpened.count)
        // The containers are released after the measurement: closing is not opening.
        var opened: [ModelContainer] = []
        let ours10 = try harness.median { opened.append(try container(BenchItem.self, url)) }
        blackHole(opened.count)
        return [
            measure("PG-W8", "enumerate \(count) rows", raw: raw8, ours: ours8),
            measure("PG-W10", "open a container on a \(count)-row store", raw: raw10, ours: ours10),
        ]
    }

    // MARK: - PG-W9 upserts

    func upserts() throws -> Measurement {
        let count = sizes.rows
        let half = count / 2
        var rawDB = RawPostgreSQL(url: database())
        let raw = harness.median(setup: {
            rawDB = RawPostgreSQL(url: database())
            rawDB.exec(
                "CREATE TABLE uniques (id bigserial PRIMARY KEY, key bigint NOT NULL UNIQUE, text text NOT NULL)")
            rawDB.exec("INSERT INTO uniques (key, text) SELECT k, 'old' FROM generate_series(0, \(half - 1)) AS k")
        }) {
            rawDB.exec("BEGIN")
            rawDB.prepare(
                "upsert",
                "INSERT INTO uniques (key, text) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET text = EXCLUDED.text",
                parameters: 2)
            for key in (half / 2)..<(half / 2 + count) { rawDB.run("upsert", [String(key), "new"]) { _ in () } }
            rawDB.exec("COMMIT; DEALLOCATE upsert")
        }
        var store = try container(BenchUnique.self, database())
        let ours = try harness.median(setup: {
            store = try container(BenchUnique.self, database())
            let context = ModelContext(store)
            for key in 0..<half { context.insert(BenchUnique(key: key, text: "old")) }
            try context.save()
        }) {
            let context = ModelContext(store)
            for key in (half / 2)..<(half / 2 + count) { context.insert(BenchUnique(key: key, text: "new")) }
            try context.save()
        }
        return measure("PG-W9", "\(count) inserts with .unique, half colliding", raw: raw, ours: ours)
    }
}
