internal import Foundation

/// What went wrong talking to a PostgreSQL server: why a store could not open, or why a statement failed.
///
/// A `PostgreSQLError` reaches the app as the underlying error of a `SwiftDataError`
/// (`.loadIssueModelContainer` when the store cannot be opened or read, `.modelValidationFailure` when a save is
/// refused), whose message names the store. Neither ever holds a password: the server's address is given with the
/// password removed.
public struct PostgreSQLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure a PostgreSQL store tells apart.
    public enum Kind: Hashable, Sendable {
        /// The URL is not a libpq connection URI (`postgresql://user@host:5432/database`).
        case invalidURL
        /// No server answered at the address: it is down, unreachable, or the socket directory is wrong.
        case unreachable
        /// The server refused the login: a wrong password, an unknown role, or no `pg_hba.conf` entry.
        case loginRefused
        /// The server has no database of the name the URL gives.
        case databaseMissing
        /// The database holds tables of another program, or of another schema that no migration reaches.
        case foreignSchema
        /// The server cannot keep models as SwiftData needs: its encoding is not UTF-8, or it is older than
        /// PostgreSQL 13 (which brought `normalize`, which string comparisons use).
        case unsupportedServer
        /// The connection was lost while a statement ran: whether a commit then took effect is the server's to tell.
        case connectionLost
        /// The server refused a statement, with its SQLSTATE code.
        case statementFailed(sqlState: String)
    }

    /// What went wrong.
    public let kind: Kind
    /// The server's address, without its password.
    public let server: String
    /// The server's or libpq's message.
    public let message: String

    /// An error of a kind, at a server, with libpq's or the server's message.
    public init(_ kind: Kind, server: String, message: String) {
        self.kind = kind
        self.server = server
        self.message = message
    }

    /// The kind of failure, the server's address and the message.
    public var description: String {
        "PostgreSQL at \(server): \(message)"
    }
}
