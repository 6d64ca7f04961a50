import Foundation
import PostgreSQLTestServer
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// The PostgreSQL server the tests use: the libpq connection URI in `SWIFTDATA_POSTGRESQL_URL`, a database the
/// role may connect to and whose role may create databases. Each test gets a new database of its own.
enum TestServer {
    /// The server's URI, or nil when the variable is not set.
    static var url: URL? { PostgreSQLTestServer.url }

    /// True when a server is named: the PostgreSQL suites run only then (`.ci/run` always starts one).
    static var isAvailable: Bool { url != nil }

    /// Why the PostgreSQL suites did not run.
    static let absence: Comment =
        "PostgreSQL tests need a server: set SWIFTDATA_POSTGRESQL_URL to a libpq URI (see the README)"

    /// A new, empty database on the server, and the URI that names it.
    static func makeDatabase() throws -> URL { try PostgreSQLTestServer.makeDatabase() }

    /// The URI of another database on the same server.
    static func database(_ name: String, on server: URL) throws -> URL {
        try PostgreSQLTestServer.database(name, on: server)
    }

    /// Runs SQL on a database, as another program would.
    static func execute(_ sql: String, on database: URL) throws {
        try PostgreSQLTestServer.execute(sql, on: database)
    }
}

/// A container on a new database of the test server.
func makePostgreSQLContainer(_ types: any PersistentModel.Type..., url: URL? = nil) throws -> (ModelContainer, URL) {
    let database = try url ?? TestServer.makeDatabase()
    let container = try ModelContainer(for: Schema(types), configurations: [PostgreSQLConfiguration(url: database)])
    return (container, database)
}
