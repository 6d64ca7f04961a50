internal import CLibPQ
package import Foundation
package import SwiftData

/// One libpq connection to a PostgreSQL server. Used by one thread at a time: the pool hands it out.
///
/// Statements send their values as parameters in text form (bytes in binary form), never spliced into the SQL,
/// and results come back in text form, which `PostgreSQLResult` reads into `SQLValue`s by column type.
package final class PostgreSQLConnection: @unchecked Sendable {
    // @unchecked: the pool hands a connection to one thread at a time.
    var handle: OpaquePointer
    /// The server's address without its password, for messages.
    package let server: String
    private let url: URL
    /// True for a migration's connection, whose transaction stays open for the whole migration: the transactions
    /// the saves of a custom stage's contexts open on it are savepoints inside it, so that the migration commits or
    /// rolls back as one, and reads run in savepoints of their own, so that a failed read (which evaluation in
    /// memory may follow) leaves the migration's transaction usable. Set and read only by the thread that holds the
    /// connection, as everything else of it is.
    var nestsTransactions = false
    /// The statements prepared on the connection.
    private var statements = PostgreSQLStatementCache()

    /// Connects to the server a libpq connection URI names.
    ///
    /// - Throws: `PostgreSQLError` saying whether the URL is wrong, no server answered, the login was refused or
    ///   the database does not exist.
    package init(url: URL) throws {
        self.url = url
        self.server = ServerAddress.redacted(url)
        try Self.checkIsConnectionURI(url, server: server)
        // Defaults the URI's own settings override: a server that does not answer fails after ten seconds, not
        // after the system's TCP timeout; a TCP connection whose network dropped silently is found out within about
        // a minute (a listening connection waits quietly for hours); text travels as UTF-8.
        let keywords = [
            "connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count", "client_encoding",
            "dbname",
        ]
        let values = ["10", "30", "10", "3", "UTF8", url.absoluteString]
        let handle = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle else {
            throw PostgreSQLError(.unreachable, server: server, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(of: handle)
            PQfinish(handle)
            throw PostgreSQLError(Self.kindOfConnectionFailure(message), server: server, message: message)
        }
        self.handle = handle
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // Reals in text form with every digit they need to read back as the same `Double`, whatever the server's
        // or role's setting (servers before 12 default to fewer).
        try executeScript("SET extra_float_digits = 3")
    }

    deinit {
        PQfinish(handle)
    }

    /// False once the connection broke (the server restarted, the network dropped): the pool then replaces it.
    package var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

    /// True while a transaction is open on the connection, or failed and not yet rolled back.
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    // MARK: - Running Statements

    /// Runs one statement with its parameters (`$1`, `$2`… in the SQL) and returns its rows. A query or a change of
    /// rows (`SELECT`, `INSERT`, `UPDATE`, `DELETE`, `WITH`) is prepared on its first run and run prepared after
    /// (see `PostgreSQLStatementCache`); other statements run as they are.
    ///
    /// - Throws: `PostgreSQLError.statementFailed` with the server's SQLSTATE, or `.connectionLost`.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [SQLValue] = []) throws -> PostgreSQLResult {
        guard Self.isPrepared(sql), parameters.count <= Self.mostPreparedParameters else {
            let result = try withParameters(parameters) { values, lengths, formats, types in
                PQexecParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, 0)
            }
            return try check(result)
        }
        do {
            return try executePrepared(sql, parameters)
        } catch let error as PostgreSQLError where error.kind == .statementFailed(sqlState: "0A000") && !isInTransaction
        {
            // "cached plan must not change result type": another program changed a table the statement reads.
            // Outside a transaction nothing else failed with it, and it runs again, prepared anew.
            return try executePrepared(sql, parameters)
        }
    }

    /// Runs a statement prepared on this connection, preparing it first when it is not.
    private func executePrepared(_ sql: String, _ parameters: [SQLValue]) throws -> PostgreSQLResult {
        try withParameters(parameters) { values, lengths, formats, types in
            let key = PostgreSQLStatementCache.Key(
                sql: sql, types: types.map { Array(UnsafeBufferPointer(start: $0, count: parameters.count)) } ?? [])
            let name: String
            if let known = statements.name(of: key) {
                name = known
            } else {
                let added = statements.add(key)
                deallocateEvicted()
                do {
                    _ = try check(PQprepare(handle, added, sql, Int32(parameters.count), types))
                } catch {
                    statements.remove(key, deallocating: false)
                    throw error
                }
                name = added
            }
            do {
                return try check(PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0))
            } catch let error as PostgreSQLError where error.kind == .statementFailed(sqlState: "0A000") {
                statements.remove(key, deallocating: true)
                throw error
            }
        }
    }

    /// The most parameters of a statement worth keeping prepared: a save's multi-row `INSERT` has thousands, and its
    /// plan would hold the server's memory for one statement a save may run once.
    private static let mostPreparedParameters = 256

    /// Deallocates the statements the cache let go of, once no transaction is open: a `DEALLOCATE` that fails
    /// inside one would abort it.
    private func deallocateEvicted() {
        guard !statements.evicted.isEmpty, !isInTransaction else { return }
        for name in statements.takeEvicted() { _ = try? executeScript("DEALLOCATE \"\(name)\"") }
    }

    /// True for SQL worth preparing: queries and changes of rows, which a store runs again and again.
    private static func isPrepared(_ sql: String) -> Bool {
        for head in ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WITH "] where sql.hasPrefix(head) { return true }
        return false
    }

    /// The result of a statement, or the error it ended with.
    private func check(_ result: OpaquePointer?) throws -> PostgreSQLResult {
        guard let result else {
            throw PostgreSQLError(.connectionLost, server: server, message: Self.message(of: handle))
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            PQclear(result)
            if let sqlState {
                throw PostgreSQLError(.statementFailed(sqlState: sqlState), server: server, message: message)
            }
            throw PostgreSQLError(.connectionLost, server: server, message: message.isEmpty ? "no result" : message)
        }
        return PostgreSQLResult(result)
    }

    /// Runs statements that take no parameters, such as `BEGIN` or a schema's `CREATE TABLE`s, in one call.
    package func executeScript(_ sql: String) throws {
        guard let result = PQexec(handle, sql) else {
            throw PostgreSQLError(.connectionLost, server: server, message: Self.message(of: handle))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            throw PostgreSQLError(
                sqlState.map { .statementFailed(sqlState: $0) } ?? .connectionLost, server: server, message: message)
        }
    }

    /// Runs a read, as `execute(_:_:)` does; on a connection that nests transactions, in a savepoint of its own.
    ///
    /// - Throws: what `execute(_:_:)` throws.
    func executeRead(_ sql: String, _ parameters: [SQLValue] = []) throws -> PostgreSQLResult {
        guard nestsTransactions else { return try execute(sql, parameters) }
        try executeScript("SAVEPOINT \"swiftdata_read\"")
        do {
            let result = try execute(sql, parameters)
            try executeScript("RELEASE SAVEPOINT \"swiftdata_read\"")
            return result
        } catch {
            try? executeScript("ROLLBACK TO SAVEPOINT \"swiftdata_read\"; RELEASE SAVEPOINT \"swiftdata_read\"")
            throw error
        }
    }

    /// Opens a transaction, at an isolation level when one is given (PostgreSQL's default, READ COMMITTED, when
    /// nil); on a connection that nests transactions, a savepoint inside the open one, which takes its isolation.
    package func beginTransaction(isolation: String? = nil) throws {
        if nestsTransactions { return try executeScript("SAVEPOINT \"swiftdata_nested\"") }
        try executeScript(isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN")
    }

    /// Commits what `beginTransaction(isolation:)` opened.
    package func commitTransaction() throws {
        try executeScript(nestsTransactions ? "RELEASE SAVEPOINT \"swiftdata_nested\"" : "COMMIT")
        deallocateEvicted()
    }

    /// Rolls back what `beginTransaction(isolation:)` opened.
    package func rollBackTransaction() throws {
        try executeScript(
            nestsTransactions
                ? "ROLLBACK TO SAVEPOINT \"swiftdata_nested\"; RELEASE SAVEPOINT \"swiftdata_nested\"" : "ROLLBACK")
        deallocateEvicted()
    }

    /// Reconnects with the same URI after the connection broke.
    ///
    /// - Throws: `PostgreSQLError` when the server still cannot be reached.
    package func reconnect() throws {
        PQreset(handle)
        // A new session: the server knows none of the old one's prepared statements.
        statements.removeAll()
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(of: handle)
            throw PostgreSQLError(Self.kindOfConnectionFailure(message), server: server, message: message)
        }
    }

    // MARK: - Internal

    /// Calls `body` with libpq's parameter arrays: text values as C strings, bytes in binary form as `bytea`.
    private func withParameters<Result>(
        _ parameters: [SQLValue],
        _ body: (
            UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, UnsafePointer<Oid>?
        ) throws -> Result
    ) throws -> Result {
        guard !parameters.isEmpty else { return try body(nil, nil, nil, nil) }
        var buffers: [UnsafeMutableRawPointer?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var types: [Oid] = []
        buffers.reserveCapacity(parameters.count)
        defer { for buffer in buffers { free(buffer) } }
        for parameter in parameters {
            switch parameter {
            case .null:
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
                types.append(0)
            case .blob(let bytes):
                guard bytes.count <= Int32.max, let buffer = malloc(max(bytes.count, 1)) else {
                    throw PostgreSQLError(
                        .statementFailed(sqlState: "54000"), server: server,
                        message: "a value of \(bytes.count) bytes is larger than a PostgreSQL parameter can be")
                }
                bytes.withUnsafeBytes {
                    buffer.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(buffer), byteCount: $0.count)
                }
                buffers.append(buffer)
                lengths.append(Int32(bytes.count))
                formats.append(1)
                types.append(PostgreSQLResult.byteaType)
            case .integer, .real, .text:
                let text = Self.textForm(of: parameter)
                // PostgreSQL's text cannot hold NUL, and a C string would end at it: refused, never cut short.
                guard !text.utf8.contains(0) else {
                    throw PostgreSQLError(
                        .statementFailed(sqlState: "22021"), server: server,
                        message: "PostgreSQL text cannot hold the NUL character (\\0), which a string value contains")
                }
                buffers.append(UnsafeMutableRawPointer(strdup(text)))
                lengths.append(0)
                formats.append(0)
                types.append(0)
            }
        }
        let values = buffers.map { $0.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } }
        return try body(values, lengths, formats, types)
    }

    /// A value's text form as PostgreSQL reads it: a real in the shortest form that reads back as the same `Double`.
    private static func textForm(of value: SQLValue) -> String {
        switch value {
        case .integer(let number): String(number)
        case .real(let number):
            if number.isNaN {
                "NaN"
            } else if number.isInfinite {
                number < 0 ? "-Infinity" : "Infinity"
            } else {
                "\(number)"
            }
        case .text(let text): text
        case .null, .blob: ""
        }
    }

    /// Refuses a URL libpq cannot read as a connection URI, before trying to connect.
    private static func checkIsConnectionURI(_ url: URL, server: String) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgresql" || scheme == "postgres" else {
            throw PostgreSQLError(
                .invalidURL, server: server,
                message: "a PostgreSQL store's URL must start with postgresql:// (a libpq connection URI)")
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url.absoluteString, &error) else {
            // libpq's message may quote any part of the URI, a password too: it is not passed on.
            if let error { PQfreemem(error) }
            throw PostgreSQLError(
                .invalidURL, server: server, message: "libpq cannot read the URL as a connection URI")
        }
        PQconninfoFree(options)
    }

    static func message(of handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Which failure a connection's message describes. libpq gives no code for a failed connection, only the
    /// server's message, whose wording these are (the server's own messages in English, as libpq reports them).
    private static func kindOfConnectionFailure(_ message: String) -> PostgreSQLError.Kind {
        if message.contains("database \""), message.contains("does not exist") { return .databaseMissing }
        let loginFailures = [
            "password authentication failed", "role \"", "no pg_hba.conf entry", "authentication failed",
            "no password supplied", "password is required",
        ]
        if loginFailures.contains(where: message.contains) { return .loginRefused }
        return .unreachable
    }
}

/// Calls `body` with a C array of C strings, ended by a null pointer, as libpq's keyword and value lists are.
private func withCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
