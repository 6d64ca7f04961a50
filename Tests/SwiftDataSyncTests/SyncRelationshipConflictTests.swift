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

    /// A replica that gets a card's move into a tray and that tray's deletion in one batch ends as the others do:
    /// the card without a tray.
    @Test func aLinkToAModelTheSameBatchDeletesIsCleared() async throws {
        let replicas = try makeReplicas(3)
        let (s, u, r) = (replicas[0], replicas[1], replicas[2])
        let context = s.context()
        let first = SyncTray(uid: "a")
        context.insert(first)
        context.insert(SyncTray(uid: "b"))
        context.insert(SyncCard(uid: "card", tray: first))
        try context.save()
        for replica in replicas { try await replica.sync() }

        let card = try #require(try context.fetch(FetchDescriptor<SyncCard>()).first)
        card.tray = try #require(try context.fetch(FetchDescriptor<SyncTray>()).first { $0.uid == "b" })
        try context.save()
        try await s.sync()
        try await u.sync()
        let contextU = u.context()
        contextU.delete(try #require(try contextU.fetch(FetchDescriptor<SyncTray>()).first { $0.uid == "b" }))
        try contextU.save()
        try await u.sync()
        // R was offline all along: the move and the deletion arrive in one batch.
        try await r.sync()
        for _ in 0..<2 {
            for replica in replicas { try await replica.sync() }
        }
        for replica in replicas {
            #expect(try dumpLinks(replica.container).contains("card card tray -"))
        }
    }

    /// A passport moved to a person who, by a later write elsewhere, has another passport ends without an owner on
    /// every replica, even one that learns of the later write first.
    @Test func aDisplacedPartnerEndsWithoutOne() async throws {
        let replicas = try makeReplicas(3)
        let (second, third) = (replicas[1], replicas[2])
        let server = second.server
        let late = try Replica(types, server: server, account: second.account, clock: second.clock, pageLimit: 1)
        let context = second.context()
        let x = SyncPerson(uid: "x")
        let p1 = SyncPassport(uid: "p1")
        context.insert(x)
        context.insert(SyncPerson(uid: "y"))
        context.insert(p1)
        context.insert(SyncPassport(uid: "p2"))
        p1.owner = x
        try context.save()
        try await second.sync()
        try await third.sync()
        try await late.sync()

        // `second` moves p1 to y (stamped first, sent last); `third` then gives y the passport p2.
        second.network.isUp = false
        p1.owner = try #require(try context.fetch(FetchDescriptor<SyncPerson>()).first { $0.uid == "y" })
        try context.save()
        await #expect(throws: SyncError.offline) { try await second.engine.sendChanges() }
        let contextThird = third.context()
        let p2 = try #require(try contextThird.fetch(FetchDescriptor<SyncPassport>()).first { $0.uid == "p2" })
        p2.owner = try #require(try contextThird.fetch(FetchDescriptor<SyncPerson>()).first { $0.uid == "y" })
        try contextThird.save()
        try await third.sync()
        second.network.isUp = true
        try await second.engine.sendChanges()

        // `late` reads one record per fetch: p2's before p1's, whose earlier move to y it cannot make.
        try await late.sync()
        for _ in 0..<2 {
            for replica in replicas + [late] { try await replica.sync() }
        }
        let expected = try dumpLinks(late.container)
        #expect(expected.contains("passport p1 owner -"))
        #expect(expected.contains("passport p2 owner y"))
        for replica in replicas { #expect(try dumpLinks(replica.container) == expected) }
    }

    /// A record whose link names a model of another entity (a faulty replica, or SQL written by hand) is refused
    /// with an error, not linked.
    @Test func aLinkToAModelOfAnotherEntityIsRefused() async throws {
        let replicas = try makeReplicas(2)
        let (a, b) = (replicas[0], replicas[1])
        let context = a.context()
        context.insert(SyncCard(uid: "card"))
        context.insert(SyncPerson(uid: "x"))
        try context.save()
        try await a.sync()
        let transport = try await a.server.makeTransport(account: a.account)
        let records = try await transport.fetchChanges(after: 0, limit: 10).records
        var card = try #require(records.first { $0.entityName == "SyncCard" })
        let person = try #require(records.first { $0.entityName == "SyncPerson" })
        let stamp = SyncTimestamp(milliseconds: 9_000_000_000_000, counter: 0, replica: "faulty")
        card.fields["tray"] = SyncRecord.Field(value: "\"\(person.recordName)\"", timestamp: stamp)
        try await transport.send([card], assets: [:])
        await #expect(throws: SyncError.unreadableRecord) { try await b.engine.fetchChanges() }
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
