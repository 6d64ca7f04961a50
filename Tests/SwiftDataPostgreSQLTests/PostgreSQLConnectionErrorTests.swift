import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// Opening a store at a wrong address says what is wrong and where, without the password.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLConnectionErrorTests {
    /// The kind of `PostgreSQLError` under the error opening a container at `url` throws, and its description.
    private func failure(opening url: URL) throws -> (kind: PostgreSQLError.Kind?, description: String) {
        do {
            _ = try ModelContainer(for: Schema([PGTag.self]), configurations: [PostgreSQLConfiguration(url: url)])
        } catch let error as SwiftDataError {
            #expect(error == .loadIssueModelContainer)
            return ((error.underlyingError as? PostgreSQLError)?.kind, "\(error)")
        }
        Issue.record("opening \(url) succeeded")
        return (nil, "")
    }

    @Test func aURLThatIsNotAConnectionURIIsRefused() throws {
        let result = try failure(opening: URL(string: "https://example.com/db")!)
        #expect(result.kind == .invalidURL)
        // libpq's own complaint may quote the password: it is not passed on.
        let unreadable = try failure(opening: URL(string: "postgresql://app:s3cr%00et@localhost/db")!)
        #expect(unreadable.kind == .invalidURL)
        #expect(!unreadable.description.contains("s3cr"))
    }

    @Test func aServerThatDoesNotAnswerIsUnreachable() throws {
        let url = URL(string: "postgresql://someone:sekrit-password@127.0.0.1:1/db?connect_timeout=2")!
        let result = try failure(opening: url)
        #expect(result.kind == .unreachable)
        #expect(!result.description.contains("sekrit-password"))
        #expect(result.description.contains("127.0.0.1"))
    }

    @Test func aMissingDatabaseIsNamed() throws {
        let server = try #require(TestServer.url)
        let result = try failure(opening: try TestServer.database("no_such_database_here", on: server))
        #expect(result.kind == .databaseMissing)
        #expect(result.description.contains("no_such_database_here"))
    }

    @Test func anUnknownRoleIsARefusedLogin() throws {
        let server = try #require(TestServer.url)
        var components = try #require(URLComponents(url: server, resolvingAgainstBaseURL: false))
        components.user = "no_such_role"
        components.password = "hunter2-secret"
        components.queryItems = (components.queryItems ?? []).filter { $0.name != "user" }
        let result = try failure(opening: try #require(components.url))
        #expect(result.kind == .loginRefused)
        #expect(!result.description.contains("hunter2-secret"))
    }

    @Test func aRedactedAddressKeepsNoPassword() {
        let url = URL(
            string: "postgresql://app:p%40ss@db.example.com:5432/trips?password=other&sslpassword=third&sslmode=require"
        )!
        let shown = ServerAddress.redacted(url)
        #expect(!shown.contains("p%40ss") && !shown.contains("other") && !shown.contains("third"))
        #expect(shown.contains("db.example.com:5432/trips"))
    }
}
