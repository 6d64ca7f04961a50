import Foundation
import SwiftData
import SwiftDataPostgreSQL
import SwiftDataSync
import Testing

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncDurabilityTests {
    private func makePair() throws -> (SyncTestServer, Replica, Replica) {
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        return (
            server, try Replica(server: server.server, account: account, clock: clock),
            try Replica(server: server.server, account: account, clock: clock)
        )
    }

    @Test func aSaveMadeJustBeforeTheProcessEndedIsSentWhenItStartsAgain() async throws {
        let (_, a, b) = try makePair()
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Saved, never sent"))
        try context.save()
        try a.restart()
        try await a.sync()
        try await b.sync()
        #expect(try model(SyncNote.self, "n1", in: b.context())?.title == "Saved, never sent")
    }

    @Test func modelsSavedBeforeTheEngineExistedAreSent() async throws {
        let (server, a, b) = try makePair()
        // A third replica's store gets models while no engine runs on it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("notes.store")
        let schema = Schema([SyncFolder.self, SyncNote.self, SyncLabel.self])
        do {
            let plain = try ModelContainer(
                for: schema, configurations: ModelConfiguration(schema: schema, url: url, cloudKitDatabase: .none))
            let context = ModelContext(plain)
            let folder = SyncFolder(uid: "f1", name: "Old")
            context.insert(folder)
            context.insert(SyncNote(uid: "n1", title: "From before", folder: folder))
            try context.save()
        }
        let container = try ModelContainer(
            for: schema, configurations: ModelConfiguration(schema: schema, url: url, cloudKitDatabase: .automatic))
        let engine = try SyncEngine(container: container, server: server.server, account: a.account)
        try await engine.sendChanges()
        try await b.sync()
        #expect(try model(SyncNote.self, "n1", in: b.context())?.folder?.name == "Old")
        #expect(try b.dump() == dump(container))
    }

    @Test func anAnswerLostAfterTheServerTookASendChangesNothingMore() async throws {
        let (server, a, b) = try makePair()
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Once"))
        try context.save()
        a.network.loseNextAnswer()
        await #expect(throws: SyncError.offline) { try await a.engine.sendChanges() }
        try await a.sync()
        try await b.sync()
        #expect(try b.context().fetchCount(FetchDescriptor<SyncNote>()) == 1)
        let asAlice = try PostgreSQLConnection(url: try server.url(of: a.account))
        #expect(try asAlice.execute("SELECT count(*) FROM swiftdata_sync.records").integer(row: 0, column: 0) == 1)
    }

    /// The process ends after an apply's save and before the engine recorded it: the next run fetches the same
    /// records again, and the models that save inserted are not there twice.
    @Test func anApplyThatDidNotFinishIsAppliedAgainWithoutDuplicates() async throws {
        let (_, a, b) = try makePair()
        let context = a.context()
        let folder = SyncFolder(uid: "f1", name: "Work")
        context.insert(folder)
        context.insert(SyncNote(uid: "n1", title: "One", folder: folder))
        try context.save()
        try await a.sync()

        await b.engine.interruptNextApplyAfterSaving()
        await #expect(throws: SyncEngine.Interrupted.self) { try await b.engine.fetchChanges() }
        try b.restart()
        try await b.sync()
        try await a.sync()
        #expect(try b.context().fetchCount(FetchDescriptor<SyncNote>()) == 1)
        #expect(try b.context().fetchCount(FetchDescriptor<SyncFolder>()) == 1)
        #expect(try a.dump() == b.dump())
        // B's later edits still reach A.
        let contextB = b.context()
        try #require(try model(SyncNote.self, "n1", in: contextB)).title = "Edited on B"
        try contextB.save()
        try await b.sync()
        try await a.sync()
        #expect(try model(SyncNote.self, "n1", in: a.context())?.title == "Edited on B")
    }

    /// An apply cut short had inserted a folder and moved a note B already had into it: taking the folder away
    /// again must not take the note with it (the folder's delete rule cascades).
    @Test func anApplyCutShortThatLinkedAnExistingModelLosesNothing() async throws {
        let (_, a, b) = try makePair()
        let context = a.context()
        let note = SyncNote(uid: "n1", title: "One")
        context.insert(note)
        try context.save()
        try await a.sync()
        try await b.sync()
        let folder = SyncFolder(uid: "f1", name: "Work")
        context.insert(folder)
        note.folder = folder
        try context.save()
        try await a.sync()

        await b.engine.interruptNextApplyAfterSaving()
        await #expect(throws: SyncEngine.Interrupted.self) { try await b.engine.fetchChanges() }
        try b.restart()
        try await b.sync()
        try await a.sync()
        #expect(try model(SyncNote.self, "n1", in: a.context())?.folder?.uid == "f1")
        #expect(try model(SyncNote.self, "n1", in: b.context())?.folder?.uid == "f1")
        #expect(try a.dump() == b.dump())
    }

    /// A container with a synced store and a local one: only the synced store's changes travel, and every one of
    /// them does, however the two stores' history interleaves.
    @Test func onlyTheSyncedStoreOfAContainerWithTwoSyncsAndAllOfIt() async throws {
        let (server, _, b) = try makePair()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The cache comes first and names its models; the notes' configuration names none and takes the rest.
        let cache = ModelConfiguration(
            "Cache", schema: Schema([LocalCacheEntry.self]), url: directory.appendingPathComponent("a-cache.store"),
            cloudKitDatabase: .none)
        let notes = ModelConfiguration(
            "Notes", url: directory.appendingPathComponent("notes.store"), cloudKitDatabase: .private("iCloud.test"))
        let container = try ModelContainer(
            for: Schema([SyncFolder.self, SyncNote.self, SyncLabel.self, LocalCacheEntry.self]),
            configurations: cache, notes)
        let engine = try SyncEngine(container: container, server: server.server, account: b.account)
        let context = ModelContext(container)
        for round in 0..<3 {
            context.insert(SyncNote(uid: "n\(round)", title: "Note \(round)"))
            context.insert(LocalCacheEntry(key: "k\(round)"))
            try context.save()
            context.insert(LocalCacheEntry(key: "k\(round)b"))
            try context.save()
            try await engine.sendChanges()
            try await engine.fetchChanges()
            try await b.sync()
            #expect(try b.context().fetchCount(FetchDescriptor<SyncNote>()) == round + 1)
        }
        let asAlice = try PostgreSQLConnection(url: try server.url(of: b.account))
        #expect(try asAlice.execute("SELECT count(*) FROM swiftdata_sync.records").integer(row: 0, column: 0) == 3)
        #expect(try b.dump() == dump(container))
    }

    @Test func anAccountWithALongNameSyncs() async throws {
        let server = try SyncTestServer()
        let account = try server.makeAccount(String(repeating: "a", count: 48))
        let clock = TestClock()
        let a = try Replica(server: server.server, account: account, clock: clock)
        let b = try Replica(server: server.server, account: account, clock: clock)
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Long"))
        try context.save()
        try await a.sync()
        try await b.sync()
        #expect(try b.dump() == a.dump())
        let transport = try await server.server.makeTransport(account: account)
        #expect(try await transport.waitForChanges(timeout: 0.05) == false)
    }

    @Test func changesAppliedFromTheServerAreSavedUnderTheEnginesAuthor() async throws {
        let (_, a, b) = try makePair()
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "One"))
        try context.save()
        try await a.sync()
        try await b.sync()
        let history = try b.context().fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.contains { $0.author == SyncEngine.author && !$0.changes.isEmpty })
    }
}

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncLiveResultsTests {
    /// What the engine applies reaches the container's other contexts and their live queries, as any other
    /// context's save does.
    @Test @MainActor func aLiveQueryShowsWhatAnotherReplicaSent() async throws {
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        let a = try Replica(server: server.server, account: account, clock: clock)
        let b = try Replica(server: server.server, account: account, clock: clock)
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<SyncNote>(sortBy: [SortDescriptor(\.uid)]),
            modelContext: b.container.mainContext)
        #expect(observer.results.isEmpty)

        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "From A"))
        try context.save()
        try await a.sync()
        try await b.engine.fetchChanges()
        var shown: [String] = []
        for _ in 0..<100 {
            shown = observer.results.map(\.title)
            if !shown.isEmpty { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(shown == ["From A"])
        #expect(try b.container.mainContext.fetch(FetchDescriptor<SyncNote>()).map(\.title) == ["From A"])
    }
}
