public import Foundation
internal import SwiftDataPostgreSQL

/// The PostgreSQL server test suites use: the libpq connection URI in `SWIFTDATA_POSTGRESQL_URL`, of a database
/// the role may connect to, with a role that may create databases. Each test makes a new database of its own.
public enum PostgreSQLTestServer {
    /// The variable that names the server.
    public static let variable = "SWIFTDATA_POSTGRESQL_URL"

    /// The server's URI, or nil when the variable is not set.
    public static let url: URL? = ProcessInfo.processInfo.environment[variable].flatMap(URL.init(string:))

    /// Why a test made no database.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// A new, empty database on the server, and the URI that names it.
    ///
    /// - Throws: `Unavailable` when no server is named; what the server throws.
    public static func makeDatabase() throws -> URL {
        guard let server = url else { throw Unavailable(description: "\(variable) is not set") }
        let name = "swiftdata_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgreSQLConnection(url: server).execute("CREATE DATABASE \"\(name)\"")
        return try database(name, on: server)
    }

    /// The URI of another database on the same server.
    ///
    /// - Throws: `Unavailable` when the server's URI cannot name another database.
    public static func database(_ name: String, on server: URL) throws -> URL {
        guard var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else {
            throw Unavailable(description: "\(variable) is not a URI")
        }
        components.path = "/" + name
        guard let url = components.url else { throw Unavailable(description: "no URI for the database \(name)") }
        return url
    }

    /// Runs SQL on a database, as another program would.
    ///
    /// - Throws: what the server throws.
    public static func execute(_ sql: String, on database: URL) throws {
        try PostgreSQLConnection(url: database).execute(sql)
    }
}
