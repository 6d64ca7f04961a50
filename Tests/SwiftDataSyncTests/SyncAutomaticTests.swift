import Foundation
import SwiftData
import SwiftDataSync
import Testing

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncAutomaticTests {
    /// Waits, up to a limit, until a condition holds; true when it did.
    private func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<400 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try condition()
    }

    @Test func savesReachTheOtherReplicaWithoutAnyCallAndOfflineWorkCatchesUp() async throws {
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        let a = try Replica(server: server.server, account: account, clock: clock)
        let b = try Replica(server: server.server, account: account, clock: clock)
        await a.engine.startAutomaticSync()
        await b.engine.startAutomaticSync()

        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Sent after the save"))
        try context.save()
        #expect(try await eventually { try model(SyncNote.self, "n1", in: b.context()) != nil })

        // B works offline; the engine tries again until the network is back.
        b.network.isUp = false
        let contextB = b.context()
        contextB.insert(SyncNote(uid: "n2", title: "Made offline"))
        try contextB.save()
        try await Task.sleep(for: .milliseconds(200))
        #expect(try model(SyncNote.self, "n2", in: a.context()) == nil)
        b.network.isUp = true
        #expect(try await eventually { try model(SyncNote.self, "n2", in: a.context()) != nil })
        #expect(try await eventually { try a.dump() == b.dump() })

        await a.engine.stopAutomaticSync()
        await b.engine.stopAutomaticSync()
    }
}
