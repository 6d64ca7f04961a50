import Foundation
import SwiftData
import SwiftDataSync
import Testing

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncMergeTests {
    /// Two replicas of one account on the test server.
    private func makePair() throws -> (Replica, Replica) {
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        return (
            try Replica(server: server.server, account: account, clock: clock),
            try Replica(server: server.server, account: account, clock: clock)
        )
    }

    @Test func aNoteMadeOnOneReplicaArrivesOnTheOther() async throws {
        let (a, b) = try makePair()
        let context = a.context()
        let folder = SyncFolder(name: "Work")
        context.insert(folder)
        context.insert(SyncNote(title: "Plan", folder: folder))
        try context.save()
        try await a.sync()
        try await b.sync()
        #expect(try b.dump() == a.dump())
        let note = try #require(try b.context().fetch(FetchDescriptor<SyncNote>()).first)
        #expect(note.title == "Plan")
        #expect(note.folder?.name == "Work")
    }

    /// Seed 002's scenario: A makes a note, B gets it, B changes the title, A goes offline and enters another
    /// title, then the network comes back. The written decision: the later title wins on both devices, and a
    /// field only one device changed keeps that device's value.
    @Test func seed002TwoDevicesEditTheSameNoteWhileOneIsOffline() async throws {
        let (a, b) = try makePair()
        let contextA = a.context()
        let note = SyncNote(uid: "n1", title: "İlk not")
        contextA.insert(note)
        try contextA.save()
        try await a.sync()
        try await b.sync()
        let contextB = b.context()
        let noteOnB = try #require(try model(SyncNote.self, "n1", in: contextB))
        #expect(noteOnB.title == "İlk not")

        noteOnB.title = "B'nin başlığı"
        try contextB.save()
        try await b.sync()

        a.network.isUp = false
        note.title = "A'nın başlığı"
        let pinned = Date(timeIntervalSince1970: 1_800_000_000)
        note.pinnedAt = pinned
        try contextA.save()
        await #expect(throws: SyncError.offline) { try await a.engine.sendChanges() }
        a.network.isUp = true

        try await a.sync()
        try await b.sync()
        let onA = try #require(try model(SyncNote.self, "n1", in: a.context()))
        let onB = try #require(try model(SyncNote.self, "n1", in: b.context()))
        #expect(onA.title == "A'nın başlığı")
        #expect(onB.title == "A'nın başlığı")
        #expect(onB.pinnedAt == pinned)
        #expect(try a.dump() == b.dump())
    }

    @Test func concurrentEditsOfDifferentFieldsBothSurvive() async throws {
        let (a, b) = try makePair()
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Start"))
        try context.save()
        try await a.sync()
        try await b.sync()

        let onA = try #require(try model(SyncNote.self, "n1", in: context))
        onA.title = "Title from A"
        try context.save()
        let contextB = b.context()
        let onB = try #require(try model(SyncNote.self, "n1", in: contextB))
        onB.body = "Body from B"
        try contextB.save()

        try await a.sync()
        try await b.sync()
        try await a.sync()
        for replica in [a, b] {
            let note = try #require(try model(SyncNote.self, "n1", in: replica.context()))
            #expect(note.title == "Title from A")
            #expect(note.body == "Body from B")
        }
    }

    @Test func aDeletionWinsOverAConcurrentEdit() async throws {
        let (a, b) = try makePair()
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Start"))
        try context.save()
        try await a.sync()
        try await b.sync()

        // B edits after A deleted: still concurrent, as B had not seen the deletion.
        context.delete(try #require(try model(SyncNote.self, "n1", in: context)))
        try context.save()
        try await a.engine.sendChanges()
        let contextB = b.context()
        try #require(try model(SyncNote.self, "n1", in: contextB)).title = "Edited on B"
        try contextB.save()

        try await b.sync()
        try await a.sync()
        #expect(try model(SyncNote.self, "n1", in: a.context()) == nil)
        #expect(try model(SyncNote.self, "n1", in: b.context()) == nil)
    }

    @Test func deletingAFolderOnOneReplicaCascadesEverywhere() async throws {
        let (a, b) = try makePair()
        let context = a.context()
        let folder = SyncFolder(uid: "f1", name: "Work")
        context.insert(folder)
        context.insert(SyncNote(uid: "n1", title: "One", folder: folder))
        try context.save()
        try await a.sync()
        try await b.sync()

        // B adds a note to the folder while A deletes the folder.
        let contextB = b.context()
        let folderOnB = try #require(try model(SyncFolder.self, "f1", in: contextB))
        contextB.insert(SyncNote(uid: "n2", title: "Two", folder: folderOnB))
        try contextB.save()
        context.delete(folder)
        try context.save()

        try await a.sync()
        try await b.sync()
        try await a.sync()
        #expect(try a.dump() == b.dump())
        #expect(try b.context().fetchCount(FetchDescriptor<SyncFolder>()) == 0)
        // A third replica that starts now gets the same.
        let c = try Replica(server: a.server, account: a.account, clock: a.clock)
        try await c.sync()
        #expect(try c.dump() == a.dump())
    }

    @Test func toManyRelationshipsMergePerMember() async throws {
        let (a, b) = try makePair()
        let context = a.context()
        let note = SyncNote(uid: "n1", title: "Note")
        let red = SyncLabel(uid: "red", name: "Red")
        let green = SyncLabel(uid: "green", name: "Green")
        let blue = SyncLabel(uid: "blue", name: "Blue")
        context.insert(note)
        for label in [red, green, blue] { context.insert(label) }
        note.labels = [red]
        try context.save()
        try await a.sync()
        try await b.sync()

        // A adds green; B adds blue and takes red away.
        note.labels = [red, green]
        try context.save()
        let contextB = b.context()
        let onB = try #require(try model(SyncNote.self, "n1", in: contextB))
        onB.labels =
            (onB.labels ?? []).filter { $0.uid != "red" } + [
                try #require(try model(SyncLabel.self, "blue", in: contextB))
            ]
        try contextB.save()

        try await a.sync()
        try await b.sync()
        try await a.sync()
        for replica in [a, b] {
            let merged = try #require(try model(SyncNote.self, "n1", in: replica.context()))
            #expect(Set((merged.labels ?? []).map(\.uid)) == ["green", "blue"])
        }
        #expect(try a.dump() == b.dump())
    }

    @Test func aRecordThatArrivesBeforeItsTargetIsHeldUntilTheTargetArrives() async throws {
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        let a = try Replica(server: server.server, account: account, clock: clock)
        // B reads one record per fetch, newest first: the note arrives before its folder.
        let b = try Replica(server: server.server, account: account, clock: clock, pageLimit: 1)
        let context = a.context()
        let folder = SyncFolder(uid: "f1", name: "Work")
        context.insert(folder)
        try context.save()
        context.insert(SyncNote(uid: "n1", title: "Plan", folder: folder))
        try context.save()
        try await a.sync()
        // The folder's record changes again after the note's, so the server's change order has the note first.
        folder.name = "Work, renamed"
        try context.save()
        try await a.sync()

        let transport = try await b.server.makeTransport(account: account)
        let first = try await transport.fetchChanges(after: 0, limit: 1)
        #expect(first.records.map(\.entityName) == ["SyncNote"])

        try await b.engine.fetchChanges()
        let note = try #require(try model(SyncNote.self, "n1", in: b.context()))
        #expect(try b.context().fetchCount(FetchDescriptor<SyncNote>()) == 1)
        #expect(note.folder?.name == "Work, renamed")
        #expect(try b.dump() == a.dump())
    }

    @Test func externalStorageValuesTravelAsAssets() async throws {
        let (a, b) = try makePair()
        let context = a.context()
        let note = SyncNote(uid: "n1", title: "Scan")
        note.attachment = Data((0..<200_000).map { UInt8($0 % 251) })
        context.insert(note)
        try context.save()
        try await a.sync()
        try await b.sync()
        let onB = try #require(try model(SyncNote.self, "n1", in: b.context()))
        #expect(onB.attachment == note.attachment)
        // The record holds the asset's name, not the bytes.
        let transport = try await b.server.makeTransport(account: b.account)
        let record = try #require(try await transport.fetchChanges(after: 0, limit: 10).records.first)
        let field = try #require(record.fields["attachment"])
        #expect(field.value.count < 200)
        #expect(
            try await transport.fetchAssets(named: [try JSONDecoder().decode(String.self, from: Data(field.value.utf8))]
            ).count == 1)
    }
}
