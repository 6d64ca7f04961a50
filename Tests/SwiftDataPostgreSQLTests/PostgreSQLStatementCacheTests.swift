import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// A connection prepares the queries and row changes it runs, once each, keeps a bounded number of them prepared,
/// and prepares anew one whose table another program changed.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLStatementCacheTests {
    private func preparedCount(_ connection: PostgreSQLConnection, matching pattern: String = "%") throws -> Int {
        let result = try connection.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE $1", [.text(pattern)])
        return Int(result.integer(row: 0, column: 0) ?? -1)
    }

    @Test func aStatementRunAgainIsPreparedOnce() throws {
        let connection = try PostgreSQLConnection(url: try TestServer.makeDatabase())
        for number in 0..<5 {
            let result = try connection.execute("SELECT $1::bigint + 1", [.integer(Int64(number))])
            #expect(result.integer(row: 0, column: 0) == Int64(number) + 1)
        }
        #expect(try preparedCount(connection, matching: "SELECT $1::bigint + 1") == 1)
    }

    /// Paging prepares one statement per page (the limit and offset are in the text): the connection keeps the
    /// most recent ones only.
    @Test func theNumberOfPreparedStatementsIsBounded() throws {
        let connection = try PostgreSQLConnection(url: try TestServer.makeDatabase())
        for offset in 0..<400 {
            let result = try connection.execute("SELECT n FROM generate_series(1, 1000) AS n OFFSET \(offset) LIMIT 1")
            #expect(result.integer(row: 0, column: 0) == Int64(offset + 1))
        }
        let prepared = try preparedCount(connection)
        #expect(prepared > 0 && prepared <= 128)
    }

    @Test func aStatementWhoseTableChangedIsPreparedAnew() throws {
        let database = try TestServer.makeDatabase()
        try TestServer.execute("CREATE TABLE t (a bigint)", on: database)
        try TestServer.execute("INSERT INTO t VALUES (1)", on: database)
        let connection = try PostgreSQLConnection(url: database)
        #expect(try connection.execute("SELECT * FROM t").columnCount == 1)
        // Another program adds a column: the prepared plan's result would change type.
        try TestServer.execute("ALTER TABLE t ADD COLUMN b text", on: database)
        #expect(try connection.execute("SELECT * FROM t").columnCount == 2)
    }
}
