import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// The PostgreSQL server the tests use: the libpq connection URI in `SWIFTDATA_POSTGRESQL_URL`, a database the
/// role may connect to and whose role may create databases. Each test gets a new database of its own.
enum TestServer {
    /// The variable that names the server.
    static let variable = "SWIFTDATA_POSTGRESQL_URL"

    /// The server's URI, or nil when the variable is not set.
    static let url: URL? = ProcessInfo.processInfo.environment[variable].flatMap(URL.init(string:))

    /// True when a server is named: the PostgreSQL suites run only then (`.ci/run` always starts one).
    static var isAvailable: Bool { url != nil }

    /// Why the PostgreSQL suites did not run.
    static let absence: Comment =
        "PostgreSQL tests need a server: set SWIFTDATA_POSTGRESQL_URL to a libpq URI (see the README)"

    /// A new, empty database on the server, and the URI that names it.
    static func makeDatabase() throws -> URL {
        let server = try #require(url)
        let name = "swiftdata_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgreSQLConnection(url: server)
        try admin.execute("CREATE DATABASE \"\(name)\"")
        return try database(name, on: server)
    }

    /// The URI of another database on the same server.
    static func database(_ name: String, on server: URL) throws -> URL {
        var components = try #require(URLComponents(url: server, resolvingAgainstBaseURL: false))
        components.path = "/" + name
        return try #require(components.url)
    }

    /// Runs SQL on a database, as another program would.
    static func execute(_ sql: String, on database: URL) throws {
        try PostgreSQLConnection(url: database).execute(sql)
    }
}

/// A container on a new database of the test server.
func makePostgreSQLContainer(_ types: any PersistentModel.Type..., url: URL? = nil) throws -> (ModelContainer, URL) {
    let database = try url ?? TestServer.makeDatabase()
    let container = try ModelContainer(for: Schema(types), configurations: [PostgreSQLConfiguration(url: database)])
    return (container, database)
}
