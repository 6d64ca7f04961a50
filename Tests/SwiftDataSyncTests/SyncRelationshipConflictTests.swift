import Foundation
import SwiftData
import SwiftDataSync
import Testing

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncRelationshipConflictTests {
    private let types: [any PersistentModel.Type] = [
        SyncPerson.self, SyncPassport.self, SyncTray.self, SyncCard.self,
    ]

    private func makeReplicas(_ count: Int) throws -> [Replica] {
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        return try (0..<count).map { _ in
            try Replica(types, server: server.server, account: account, clock: clock)
        }
    }

    private func first<Model: PersistentModel>(_ type: Model.Type, in replica: Replica, _ uid: String) throws -> Model?
    {
        try replica.context().fetch(FetchDescriptor<Model>()).first { model in
            (model as? SyncPerson)?.uid == uid || (model as? SyncPassport)?.uid == uid
                || (model as? SyncTray)?.uid == uid || (model as? SyncCard)?.uid == uid
        }
    }

    /// Two replicas give the same person a different passport at once: every replica ends with the same one, the
    /// later, and the other passport without an owner.
    @Test func twoReplicasClaimingOnePartnerConverge() async throws {
        let replicas = try makeReplicas(3)
        let (a, b, c) = (replicas[0], replicas[1], replicas[2])
        let context = a.context()
        context.insert(SyncPerson(uid: "x"))
        context.insert(SyncPassport(uid: "p1"))
        context.insert(SyncPassport(uid: "p2"))
        try context.save()
        try await a.sync()
        try await b.sync()

        let contextA = a.context()
        let personA = try #require(try contextA.fetch(FetchDescriptor<SyncPerson>()).first)
        try #require(try contextA.fetch(FetchDescriptor<SyncPassport>()).first { $0.uid == "p1" }).owner = personA
        try contextA.save()
        let contextB = b.context()
        let personB = try #require(try contextB.fetch(FetchDescriptor<SyncPerson>()).first)
        try #require(try contextB.fetch(FetchDescriptor<SyncPassport>()).first { $0.uid == "p2" }).owner = personB
        try contextB.save()

        try await a.sync()
        try await b.sync()
        // C gets both claims in one batch.
        try await c.sync()
        for _ in 0..<2 {
            for replica in replicas { try await replica.sync() }
        }
        let dumps = try replicas.map { try dumpLinks($0.container) }
        #expect(dumps[1] == dumps[0])
        #expect(dumps[2] == dumps[0])
        #expect(dumps[0].contains("person x passport p2"))
    }

    /// B deletes a tray (its cards are nullified) while C moves a card from it to another tray. A, which still
    /// has the card in the deleted tray, must not send its own nullification over C's later move.
    @Test func aNullifiedLinkDoesNotOverrideAConcurrentMove() async throws {
        let replicas = try makeReplicas(3)
        let (a, b, c) = (replicas[0], replicas[1], replicas[2])
        let context = a.context()
        let first = SyncTray(uid: "t1")
        context.insert(first)
        context.insert(SyncTray(uid: "t2"))
        context.insert(SyncCard(uid: "card", tray: first))
        try context.save()
        for replica in replicas { try await replica.sync() }

        let contextB = b.context()
        contextB.delete(try #require(try contextB.fetch(FetchDescriptor<SyncTray>()).first { $0.uid == "t1" }))
        try contextB.save()
        let contextC = c.context()
        let card = try #require(try contextC.fetch(FetchDescriptor<SyncCard>()).first)
        card.tray = try #require(try contextC.fetch(FetchDescriptor<SyncTray>()).first { $0.uid == "t2" })
        try contextC.save()
        // C's move is stamped now, and sent only later.
        c.network.isUp = false
        await #expect(throws: SyncError.offline) { try await c.engine.sendChanges() }
        c.network.isUp = true

        try await b.sync()
        // A applies the tray's deletion (nullifying the card's tray), then sends.
        try await a.sync()
        try await c.sync()
        for _ in 0..<2 {
            for replica in replicas { try await replica.sync() }
        }
        for replica in replicas {
            #expect(try dumpLinks(replica.container).contains("card card tray t2"))
        }
    }
}
