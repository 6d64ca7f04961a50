import CLibPQBench
import Foundation

/// The PostgreSQL baseline: libpq used as a careful programmer would, with prepared statements, text parameters and
/// one transaction per batch of work.
final class RawPostgreSQL {
    let connection: OpaquePointer
    let url: URL

    init(url: URL) {
        self.url = url
        connection = PQconnectdb(url.absoluteString)
        precondition(PQstatus(connection) == CONNECTION_OK, String(cString: PQerrorMessage(connection)))
    }

    deinit { PQfinish(connection) }

    /// Runs statements without parameters.
    func exec(_ sql: String) {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        precondition(
            status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK, String(cString: PQerrorMessage(connection)))
    }

    /// Prepares a named statement.
    func prepare(_ name: String, _ sql: String, parameters: Int32) {
        let result = PQprepare(connection, name, sql, parameters, nil)
        defer { PQclear(result) }
        precondition(PQresultStatus(result) == PGRES_COMMAND_OK, String(cString: PQerrorMessage(connection)))
    }

    /// Runs a prepared statement with text parameters and hands its result to `body` before clearing it.
    func run<T>(_ name: String, _ parameters: [String], _ body: (OpaquePointer) -> T) -> T {
        var copies = parameters.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let result = copies.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                PQexecPrepared(connection, name, Int32(parameters.count), $0.baseAddress, nil, nil, 0)
            }
        }!
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        precondition(
            status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK, String(cString: PQerrorMessage(connection)))
        return body(result)
    }

    /// The items a result holds, in the `RawItem` shape: `id, number, shortText, longText, flag, value, date`.
    static func items(_ result: OpaquePointer) -> [RawItem] {
        (0..<PQntuples(result)).map { row in
            func text(_ column: Int32) -> String { String(cString: PQgetvalue(result, row, column)) }
            return RawItem(
                id: Int64(text(0)) ?? 0, number: Int(text(1)) ?? 0, shortText: text(2), longText: text(3),
                flag: PQgetvalue(result, row, 4).pointee == CChar(UInt8(ascii: "t")), value: Double(text(5)) ?? 0,
                date: Date(timeIntervalSinceReferenceDate: Double(text(6)) ?? 0))
        }
    }

    /// A new database on the server a URI names, and its URI.
    static func makeDatabase(on server: URL) -> URL {
        let name = "swiftdata_bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        RawPostgreSQL(url: server).exec("CREATE DATABASE \"\(name)\"")
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.path = "/" + name
        return components.url!
    }

    /// Drops the databases this run made.
    static func dropDatabases(_ databases: [URL], on server: URL) {
        let admin = RawPostgreSQL(url: server)
        for database in databases {
            admin.exec("DROP DATABASE IF EXISTS \"\(database.lastPathComponent)\" WITH (FORCE)")
        }
    }
}
