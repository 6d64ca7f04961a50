import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// Values and situations where PostgreSQL differs from SQLite and from Swift, each kept to Swift's answer or
/// refused with a typed error.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLEdgeCaseTests {
    @Test func aStringWithNULIsRefusedAndOverwritesNothing() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let context = ModelContext(container)
        context.insert(PGTrip(code: "a", name: "first"))
        try context.save()
        let writer = ModelContext(container)
        let trip = PGTrip(code: "a\u{0}b", name: "second")
        writer.insert(trip)
        #expect(throws: SwiftDataError.self) { try writer.save() }
        #expect(writer.insertedModelsArray.count == 1)
        let stored = try ModelContext(container).fetch(FetchDescriptor<PGTrip>())
        #expect(stored.map(\.code) == ["a"])
        #expect(stored.map(\.name) == ["first"])
    }

    @Test func doublesReadBackExactlyWhateverTheServersDigitsSetting() throws {
        let database = try TestServer.makeDatabase()
        let name = try #require(database.path.split(separator: "/").last)
        try TestServer.execute("ALTER DATABASE \"\(name)\" SET extra_float_digits = 0", on: database)
        let (container, _) = try makePostgreSQLContainer(PGTrip.self, url: database)
        let context = ModelContext(container)
        let budget = 0.1 + 0.2
        let start = Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_78)
        context.insert(PGTrip(code: "x", name: "x", startDate: start, budget: budget))
        try context.save()
        let read = try #require(try ModelContext(container).fetch(FetchDescriptor<PGTrip>()).first)
        #expect(read.budget == budget)
        #expect(read.startDate == start)
    }

    @Test func savesAndFetchesReconnectAfterTheServerDroppedEveryConnection() throws {
        let (container, database) = try makePostgreSQLContainer(PGTrip.self)
        let context = ModelContext(container)
        context.insert(PGTrip(code: "before", name: "x"))
        try context.save()
        _ = try context.fetch(FetchDescriptor<PGTrip>())
        // What a restart does to the pool's idle connections.
        let name = try #require(database.path.split(separator: "/").last)
        let server = try #require(TestServer.url)
        try TestServer.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'", on: server)
        let after = ModelContext(container)
        after.insert(PGTrip(code: "after", name: "y"))
        try after.save()
        #expect(
            try ModelContext(container).fetch(FetchDescriptor<PGTrip>()).map(\.code).sorted() == ["after", "before"])
    }

    /// What PostgreSQL cannot evaluate exactly runs in memory, and a fetch that forbids that throws. (SQLite
    /// evaluates `localizedStandardContains` in SQL, so strict mode takes it there.)
    @Test func aPredicateOnlySwiftCanEvaluateIsRefusedInStrictMode() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let context = ModelContext(container)
        context.insert(PGTrip(code: "a", name: "Caf\u{E9} trip"))
        context.insert(PGTrip(code: "b", name: "Office"))
        try context.save()
        var descriptor = FetchDescriptor<PGTrip>(predicate: #Predicate { $0.name.localizedStandardContains("cafe") })
        #expect(try context.fetch(descriptor).map(\.code) == ["a"])
        descriptor.allowsInMemoryEvaluation = false
        #expect(throws: SwiftDataError.unsupportedPredicate) { try context.fetch(descriptor) }
    }
}
