import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// What only a PostgreSQL store does: the behaviours both stores share are in the `Store…Tests` suites, which run on
/// each store (`TestedStore`).
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLStoreTests {
    @Test func twoContainersSavingOneUniqueValueAtOnceEndWithOneRow() async throws {
        let database = try TestServer.makeDatabase()
        let (one, _) = try makePostgreSQLContainer(PGTrip.self, url: database)
        let (two, _) = try makePostgreSQLContainer(PGTrip.self, url: database)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, container) in [one, two, one, two].enumerated() {
                group.addTask {
                    let context = ModelContext(container)
                    for round in 0..<20 {
                        context.insert(PGTrip(code: "K\(round % 5)", name: "writer \(index)"))
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        let codes = try ModelContext(one).fetch(FetchDescriptor<PGTrip>()).map(\.code).sorted()
        #expect(codes == ["K0", "K1", "K2", "K3", "K4"])
    }

    @Test func aStoreOfAnotherSchemaIsRefusedWithATypedError() throws {
        let database = try TestServer.makeDatabase()
        try TestServer.execute("CREATE TABLE invoices (id integer)", on: database)
        do {
            _ = try makePostgreSQLContainer(PGTrip.self, url: database)
            Issue.record("a database of another program opened")
        } catch let error as SwiftDataError {
            #expect(error == .loadIssueModelContainer)
            #expect((error.underlyingError as? PostgreSQLError)?.kind == .foreignSchema)
            #expect(error.description.contains("invoices"))
        }
    }
}

/// Two stores in one database, each in a schema of its own.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLSchemasTests {
    /// The URI of a database with a search path.
    private func url(_ database: URL, schema: String) throws -> URL {
        var components = try #require(URLComponents(url: database, resolvingAgainstBaseURL: false))
        components.queryItems =
            (components.queryItems ?? []) + [URLQueryItem(name: "options", value: "-csearch_path=\(schema)")]
        return try #require(components.url)
    }

    /// Each store's saves take locks of its own: a save that spans both does not wait for itself.
    @Test func aSaveAcrossTwoStoresOfOneDatabaseCommitsBoth() throws {
        let database = try TestServer.makeDatabase()
        try TestServer.execute("CREATE SCHEMA notes", on: database)
        try TestServer.execute("CREATE SCHEMA tags", on: database)
        let container = try ModelContainer(
            for: Schema([PGNote.self, PGTag.self]),
            configurations: [
                PostgreSQLConfiguration(
                    "notes", schema: Schema([PGNote.self]), url: try url(database, schema: "notes")),
                PostgreSQLConfiguration("tags", schema: Schema([PGTag.self]), url: try url(database, schema: "tags")),
            ])
        let context = ModelContext(container)
        context.insert(PGNote(title: "n", body: ""))
        context.insert(PGTag(label: "t"))
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<PGNote>()) == 1)
        #expect(try reader.fetchCount(FetchDescriptor<PGTag>()) == 1)
        #expect(try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 2)
    }
}
