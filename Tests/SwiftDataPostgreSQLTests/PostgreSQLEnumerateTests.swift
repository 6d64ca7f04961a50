import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

@Model
final class PGEntry {
    var serial: Int
    var group: Int
    var label: String
    var isEven: Bool

    init(serial: Int, group: Int, label: String) {
        self.serial = serial
        self.group = group
        self.label = label
        self.isEven = serial.isMultiple(of: 2)
    }
}

/// The backends connected to a test database, as the server reports them: each one's process id, its state
/// (`idle`, `idle in transaction`…) and its last statement.
private func backends(of database: URL) throws -> [(pid: Int64, state: String, query: String)] {
    let name = try #require(database.path.split(separator: "/").last)
    let connection = try PostgreSQLConnection(url: try #require(TestServer.url))
    let result = try connection.execute(
        "SELECT pid, coalesce(state, ''), coalesce(query, '') FROM pg_stat_activity WHERE datname = $1",
        [.text(String(name))])
    return (0..<result.rowCount).map { row in
        (
            result.integer(row: row, column: 0) ?? 0, result.text(row: row, column: 1) ?? "",
            result.text(row: row, column: 2) ?? ""
        )
    }
}

/// The backends of a test database that hold a transaction open: a cursor's, while an enumeration runs.
private func openTransactions(in database: URL) throws -> [(pid: Int64, state: String, query: String)] {
    try backends(of: database).filter { $0.state.hasPrefix("idle in transaction") }
}

private struct BlockStopped: Error {}

/// `enumerate` reads its batches from one server-side cursor, in one read-only transaction, when the store runs the
/// whole fetch: it delivers what `fetch` returns, sees one state of the database, and gives its connection back
/// however it ends.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLEnumerateTests {
    /// A container holding `count` entries, inserted in a shuffled order so that key order is not serial order.
    private func seeded(_ count: Int) throws -> (ModelContainer, URL) {
        let (container, database) = try makePostgreSQLContainer(PGEntry.self)
        let context = ModelContext(container)
        var generator = SeededGenerator(seed: 7)
        for serial in (0..<count).shuffled(using: &generator) {
            context.insert(PGEntry(serial: serial, group: serial % 7, label: "entry \(serial)"))
        }
        try context.save()
        return (container, database)
    }

    @Test func deliversWhatFetchReturnsInTheSameOrder() throws {
        let (container, database) = try seeded(1000)
        let sorts: [[SortDescriptor<PGEntry>]] = [
            [], [SortDescriptor(\.group)], [SortDescriptor(\.group), SortDescriptor(\.serial, order: .reverse)],
        ]
        let predicates: [Predicate<PGEntry>?] = [nil, #Predicate { $0.serial >= 100 && $0.label != "entry 500" }]
        let pages: [(offset: Int?, limit: Int?)] = [
            (nil, nil), (10, nil), (nil, 64), (130, 200), (0, 1), (990, 50), (nil, 5000),
        ]
        for sortBy in sorts {
            for predicate in predicates {
                for page in pages {
                    var descriptor = FetchDescriptor(predicate: predicate, sortBy: sortBy)
                    descriptor.fetchOffset = page.offset
                    descriptor.fetchLimit = page.limit
                    let expected = try ModelContext(container).fetch(descriptor).map(\.serial)
                    let context = ModelContext(container)
                    var delivered: [Int] = []
                    var cursorsSeen: Set<Int> = []
                    try context.enumerate(descriptor, batchSize: 64) { entry in
                        delivered.append(entry.serial)
                        if delivered.count == 1 { cursorsSeen.insert(try openTransactions(in: database).count) }
                    }
                    #expect(delivered == expected, "sort \(sortBy.count), \(predicate != nil), \(page)")
                    // The first batch came from a cursor: its transaction was open while the block ran over it,
                    // unless that batch was the last (a short page closes the cursor at once).
                    #expect(cursorsSeen == (expected.isEmpty ? [] : [expected.count < 64 ? 0 : 1]))
                    #expect(try openTransactions(in: database).isEmpty)
                }
            }
        }
    }

    @Test func theCursorIsTheOnlyOpenTransactionAndRunsFetch() throws {
        let (container, database) = try seeded(200)
        var seen: [(pid: Int64, state: String, query: String)] = []
        let descriptor = FetchDescriptor<PGEntry>(sortBy: [SortDescriptor(\.label)])
        try ModelContext(container).enumerate(descriptor, batchSize: 64) { _ in
            if seen.isEmpty { seen = try openTransactions(in: database) }
        }
        #expect(seen.count == 1)
        #expect(seen.first?.query.hasPrefix("FETCH FORWARD 64 FROM") == true)
    }

    /// Batches after the first come from the snapshot the first one read: rows another context inserts or
    /// changes meanwhile do not show.
    @Test(arguments: [false, true])
    func theEnumerationSeesOneSnapshot(sorted: Bool) throws {
        let (container, _) = try seeded(300)
        let descriptor = FetchDescriptor<PGEntry>(sortBy: sorted ? [SortDescriptor(\.label)] : [])
        let expected = try ModelContext(container).fetch(descriptor).map(\.serial)
        let context = ModelContext(container)
        var delivered: [Int] = []
        try context.enumerate(descriptor, batchSize: 64) { entry in
            if delivered.isEmpty {
                let other = ModelContext(container)
                for serial in 1000..<1050 {
                    // Labels that sort among the others, and keys after theirs.
                    other.insert(PGEntry(serial: serial, group: 0, label: "entry \(serial - 900)a"))
                }
                let last = try other.fetch(FetchDescriptor<PGEntry>(predicate: #Predicate { $0.serial == 299 }))
                for entry in last { other.delete(entry) }
                try other.save()
            }
            delivered.append(entry.serial)
        }
        #expect(delivered == expected)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<PGEntry>()) == 349)
    }

    /// A block that throws ends the enumeration; the cursor's transaction ends and its connection goes back to the
    /// pool, so each enumeration after it reuses the same connection, many more times than the pool keeps open.
    @Test func aBlockThatThrowsEndsTheCursorAndGivesItsConnectionBack() throws {
        let (container, database) = try seeded(200)
        let context = ModelContext(container)
        var cursorBackends: Set<Int64> = []
        for round in 0..<40 {
            let descriptor = FetchDescriptor<PGEntry>(sortBy: round.isMultiple(of: 2) ? [SortDescriptor(\.label)] : [])
            #expect(throws: BlockStopped.self) {
                try context.enumerate(descriptor, batchSize: 16) { _ in
                    cursorBackends.formUnion(try openTransactions(in: database).map(\.pid))
                    throw BlockStopped()
                }
            }
            #expect(try openTransactions(in: database).isEmpty)
        }
        #expect(cursorBackends.count == 1)
        #expect(try context.fetch(FetchDescriptor<PGEntry>()).count == 200)
        #expect(try backends(of: database).count <= 6)
    }

    /// The block may save through the same context while the cursor holds its connection: the save takes another.
    @Test func aBlockThatSavesThroughTheSameContextWorks() throws {
        let (container, _) = try seeded(300)
        let context = ModelContext(container)
        var count = 0
        try context.enumerate(FetchDescriptor<PGEntry>(sortBy: [SortDescriptor(\.serial)]), batchSize: 64) { entry in
            entry.label = "seen \(entry.serial)"
            count += 1
            if count.isMultiple(of: 50) { try context.save() }
        }
        try context.save()
        #expect(count == 300)
        let labels = try ModelContext(container).fetch(FetchDescriptor<PGEntry>(sortBy: [SortDescriptor(\.serial)]))
            .map(\.label)
        #expect(labels == (0..<300).map { "seen \($0)" })
    }

    /// A model the context holds is delivered as it holds it: a change the block saved to a row the cursor had
    /// not reached yet is not undone by the cursor's older state of that row.
    @Test func aHeldModelIsNotSetBackToTheCursorsState() throws {
        let (container, _) = try seeded(300)
        let context = ModelContext(container)
        var last: PGEntry?
        var delivered: [String] = []
        try context.enumerate(FetchDescriptor<PGEntry>(sortBy: [SortDescriptor(\.serial)]), batchSize: 64) { entry in
            if last == nil {
                last = try context.fetch(FetchDescriptor<PGEntry>(predicate: #Predicate { $0.serial == 299 })).first
                last?.label = "changed"
                try context.save()
            }
            delivered.append(entry.label)
        }
        #expect(delivered.count == 300)
        #expect(delivered.last == "changed")
        #expect(last?.label == "changed")
    }

    /// A row the block deletes, saved or not, before the cursor reaches it is not delivered, and no model of it comes
    /// back into the context.
    @Test func rowsTheBlockDeletesAreNotDeliveredLater() throws {
        let (container, _) = try seeded(300)
        let context = ModelContext(container)
        var delivered: [Int] = []
        var gone: PersistentIdentifier?
        try context.enumerate(FetchDescriptor<PGEntry>(sortBy: [SortDescriptor(\.serial)]), batchSize: 64) { entry in
            if entry.serial == 0 {
                let last = try #require(
                    try context.fetch(FetchDescriptor<PGEntry>(predicate: #Predicate { $0.serial == 299 })).first)
                gone = last.persistentModelID
                context.delete(last)
                try context.save()
                let pending = try #require(
                    try context.fetch(FetchDescriptor<PGEntry>(predicate: #Predicate { $0.serial == 298 })).first)
                context.delete(pending)
            }
            delivered.append(entry.serial)
        }
        #expect(delivered == Array(0..<298))
        let identifier = try #require(gone)
        #expect(context.registeredModel(for: identifier) as PGEntry? == nil)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<PGEntry>()) == 298)
    }

    /// A predicate the server refuses when the cursor is declared (here a column another program changed to a type
    /// the predicate's SQL cannot compare) is evaluated in memory instead, with the same results, and the cursor's
    /// connection goes back.
    @Test(arguments: [false, true])
    func aPredicateTheServerRefusesIsEvaluatedInMemory(sorted: Bool) throws {
        let (container, database) = try seeded(300)
        try TestServer.execute(
            #"ALTER TABLE "PGEntry" ALTER COLUMN "isEven" TYPE smallint USING "isEven"::integer"#, on: database)
        var descriptor = FetchDescriptor<PGEntry>(
            predicate: #Predicate { $0.isEven == true && $0.serial < 200 },
            sortBy: sorted ? [SortDescriptor(\.label)] : [])
        descriptor.fetchOffset = 5
        descriptor.fetchLimit = 80
        let all = (0..<200).filter { $0.isMultiple(of: 2) }
        let ordered = sorted ? all.sorted { "entry \($0)" < "entry \($1)" } : nil
        var delivered: [Int] = []
        try ModelContext(container).enumerate(descriptor, batchSize: 16) { delivered.append($0.serial) }
        let expected = try ModelContext(container).fetch(descriptor).map(\.serial)
        #expect(delivered == expected)
        #expect(delivered.count == 80)
        if let ordered { #expect(delivered == Array(ordered[5..<85])) }
        #expect(try openTransactions(in: database).isEmpty)
    }

    /// The batches of a fetch with `propertiesToFetch` load the named properties, and the others when first read.
    @Test func aPartialEnumerationLoadsTheOtherPropertiesWhenRead() throws {
        let (container, _) = try seeded(150)
        var descriptor = FetchDescriptor<PGEntry>(sortBy: [SortDescriptor(\.serial)])
        descriptor.propertiesToFetch = [\.serial]
        var labels: [String] = []
        try ModelContext(container).enumerate(descriptor, batchSize: 64) { labels.append($0.label) }
        #expect(labels == (0..<150).map { "entry \($0)" })
    }
}

/// SplitMix64, so a test's shuffled order is the same on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
