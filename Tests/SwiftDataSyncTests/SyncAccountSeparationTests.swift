import Foundation
import SwiftData
import SwiftDataPostgreSQL
import SwiftDataSync
import Testing

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncAccountSeparationTests {
    @Test func anAccountSeesOnlyItsOwnRecords() async throws {
        let server = try SyncTestServer()
        let clock = TestClock()
        let alice = try Replica(server: server.server, account: try server.makeAccount("alice"), clock: clock)
        let bob = try Replica(server: server.server, account: try server.makeAccount("bob"), clock: clock)
        let context = alice.context()
        context.insert(SyncNote(uid: "secret", title: "Alice's secret"))
        try context.save()
        try await alice.sync()
        try await bob.sync()
        #expect(try bob.context().fetchCount(FetchDescriptor<SyncNote>()) == 0)
        #expect(try alice.context().fetchCount(FetchDescriptor<SyncNote>()) == 1)
    }

    /// The server keeps accounts apart, not the engine: hand-written SQL over Bob's connection can neither read
    /// nor change Alice's records.
    @Test func handWrittenSQLCannotReachAnotherAccountsRecords() async throws {
        let server = try SyncTestServer()
        let clock = TestClock()
        let aliceAccount = try server.makeAccount("alice")
        let bobAccount = try server.makeAccount("bob")
        let alice = try Replica(server: server.server, account: aliceAccount, clock: clock)
        let context = alice.context()
        let note = SyncNote(uid: "secret", title: "Alice's secret")
        note.attachment = Data("scan".utf8)
        context.insert(note)
        try context.save()
        try await alice.sync()

        let asBob = try PostgreSQLConnection(url: try server.url(of: bobAccount))
        #expect(try asBob.execute("SELECT count(*) FROM swiftdata_sync.records").integer(row: 0, column: 0) == 0)
        #expect(try asBob.execute("SELECT count(*) FROM swiftdata_sync.assets").integer(row: 0, column: 0) == 0)
        let updated = try asBob.execute(
            "UPDATE swiftdata_sync.records SET fields = '{}' WHERE account = $1", [.text(aliceAccount)])
        #expect(updated.rowCount == 0)
        #expect(throws: PostgreSQLError.self) {
            try asBob.execute(
                """
                INSERT INTO swiftdata_sync.records (account, record_name, entity_name, fields, change)
                VALUES ($1, 'forged', 'SyncNote', '{}', 1)
                """, [.text(aliceAccount)])
        }
        #expect(throws: PostgreSQLError.self) { try asBob.execute("DELETE FROM swiftdata_sync.records") }
        #expect(throws: PostgreSQLError.self) {
            try asBob.execute("ALTER TABLE swiftdata_sync.records DISABLE ROW LEVEL SECURITY")
        }

        // Alice's records are as she left them.
        let asAlice = try PostgreSQLConnection(url: try server.url(of: aliceAccount))
        #expect(try asAlice.execute("SELECT count(*) FROM swiftdata_sync.records").integer(row: 0, column: 0) == 1)
        let fresh = try Replica(server: server.server, account: aliceAccount, clock: clock)
        try await fresh.sync()
        #expect(try fresh.dump() == alice.dump())
    }

    @Test func anEngineConnectingAsAnotherRoleIsRefused() async throws {
        let server = try SyncTestServer()
        let bob = try server.makeAccount("bob")
        let replica = try Replica(
            server: .postgreSQL(url: try server.url(of: bob)), account: try server.makeAccount("alice"),
            clock: TestClock())
        replica.context().insert(SyncNote(title: "x"))
        await #expect(throws: SyncError.accountMismatch) { try await replica.engine.fetchChanges() }
    }
}
