import Foundation
import JSONStoreKit
import Testing

@testable import SwiftData

/// What SwiftData calls of a custom store besides fetching and saving, and what it does with what the store returns
/// besides the fetched snapshots and the remapped identifiers.
@Suite struct StoreHooksTests {
    let schema = Schema([HookFolder.self, HookNote.self])

    private func makeContainer(_ configuration: RecordingStoreConfiguration) throws
        -> (ModelContainer, RecordingStore)
    {
        let container = try ModelContainer(for: schema, configurations: [configuration])
        return (container, try #require(RecordingStore.named(configuration.name)))
    }

    /// Saves a folder "Inbox" holding the notes "a" and "b" through a context that is then released, and returns
    /// their identifiers.
    private func seed(_ container: ModelContainer) throws -> (
        folder: PersistentIdentifier, notes: [PersistentIdentifier]
    ) {
        let context = ModelContext(container)
        let folder = HookFolder(name: "Inbox")
        context.insert(folder)
        let notes = [HookNote(text: "a"), HookNote(text: "b")]
        folder.notes = notes
        try context.save()
        return (folder.persistentModelID, notes.map(\.persistentModelID))
    }

    /// The calls that carried an editing state.
    private func calls(of store: RecordingStore, for id: UUID) -> [RecordingStore.Call] {
        store.calls.filter { $0.editingStateID == id }
    }

    // MARK: - Initializing and Invalidating State

    @Test func theStoreIsToldOnceWhenAContextStartsUsingItAndOnceWhenTheContextIsReleased() throws {
        let (container, store) = try makeContainer(RecordingStoreConfiguration())
        var contextID: UUID?
        do {
            let context = ModelContext(container)
            contextID = context.editingState.id
            let note = HookNote(text: "a")
            context.insert(note)
            try context.save()
            _ = try context.fetch(FetchDescriptor<HookNote>())
            _ = try context.fetchCount(FetchDescriptor<HookFolder>())
            note.text = "b"
            try context.save()
            #expect(!store.calls.contains(.invalidateState(context.editingState.id)))
        }
        let id = try #require(contextID)
        let calls = calls(of: store, for: id)
        #expect(calls.first == .initializeState(id))
        #expect(calls.last == .invalidateState(id))
        #expect(calls.filter { $0 == .initializeState(id) }.count == 1)
        #expect(calls.filter { $0 == .invalidateState(id) }.count == 1)
        // Initialize, save, the fetches of notes and of folders, save, invalidate.
        #expect(calls.count == 6)
        // No request went out under another editing state.
        #expect(store.calls.allSatisfy { $0.editingStateID == id })
    }

    @Test func eachContextHasItsOwnStateAndEveryRequestCarriesIt() throws {
        let (container, store) = try makeContainer(RecordingStoreConfiguration())
        _ = try seed(container)
        let seeding = try #require(store.calls.first?.editingStateID)
        var ids: [UUID] = []
        do {
            let first = ModelContext(container)
            let second = ModelContext(container)
            ids = [first.editingState.id, second.editingState.id]
            _ = try first.fetch(FetchDescriptor<HookNote>())
            _ = try second.fetch(FetchDescriptor<HookFolder>())
            let note = try #require(try first.fetch(FetchDescriptor<HookNote>()).first)
            note.text = "c"
            try first.save()
            _ = try second.fetch(FetchDescriptor<HookNote>())
            // A batched fetch reads the rows' values and their folders' with the identifiers.
            #expect(
                try second.fetch(FetchDescriptor<HookNote>(), batchSize: 1).map { $0.folder?.name } == [
                    "Inbox", "Inbox",
                ])
        }
        #expect(Set(store.calls.map(\.editingStateID)) == Set(ids + [seeding]))
        for id in ids + [seeding] {
            let calls = calls(of: store, for: id)
            #expect(calls.first == .initializeState(id))
            #expect(calls.last == .invalidateState(id))
            #expect(calls.filter { $0 == .initializeState(id) || $0 == .invalidateState(id) }.count == 2)
        }
    }

    @Test func aContextReleasedOnAnotherThreadEndsItsStateThere() throws {
        let (container, store) = try makeContainer(RecordingStoreConfiguration())
        var context: ModelContext? = ModelContext(container)
        let id = try #require(context?.editingState.id)
        #expect(try context?.fetchCount(FetchDescriptor<HookNote>()) == 0)
        let handoff = ContextHandoff()
        handoff.context = context
        context = nil
        let released = DispatchSemaphore(value: 0)
        let thread = Thread {
            handoff.context = nil
            released.signal()
        }
        thread.start()
        released.wait()
        #expect(store.calls == [.initializeState(id), .fetch("HookNote", id), .invalidateState(id)])
    }

    @Test func aContextThatNeverUsesTheStoreIsNeitherInitializedNorInvalidated() throws {
        let lodges = ModelConfiguration("Lodges", schema: Schema([Lodge.self]), isStoredInMemoryOnly: true)
        let recording = RecordingStoreConfiguration()
        let container = try ModelContainer(
            for: Schema([HookFolder.self, HookNote.self, Lodge.self]), configurations: [lodges, recording])
        let store = try #require(RecordingStore.named(recording.name))
        do {
            let idle = ModelContext(container)
            _ = idle.editingState
            let other = ModelContext(container)
            other.insert(Lodge(name: "Kelo"))
            try other.save()
            #expect(try other.fetch(FetchDescriptor<Lodge>()).count == 1)
        }
        #expect(store.calls.isEmpty)
    }

    @Test func anotherEditingStateEndsTheFormerOneForTheStoresItUsed() throws {
        let (container, store) = try makeContainer(RecordingStoreConfiguration())
        let context = ModelContext(container)
        let former = context.editingState.id
        _ = try context.fetch(FetchDescriptor<HookNote>())
        let latter = UUID()
        context.editingState = EditingState(id: latter, author: "importer")
        _ = try context.fetch(FetchDescriptor<HookNote>())
        withExtendedLifetime(context) {
            #expect(
                store.calls == [
                    .initializeState(former), .fetch("HookNote", former), .invalidateState(former),
                    .initializeState(latter), .fetch("HookNote", latter),
                ])
        }
    }

    // MARK: - Cached Snapshots

    @Test func readsByIdentifierAskTheStoresCacheAndFetchNothingItAnswers() throws {
        var configuration = RecordingStoreConfiguration()
        configuration.cachedEntityNames = ["HookNote", "HookFolder"]
        let (container, store) = try makeContainer(configuration)
        let seeded = try seed(container)

        let context = ModelContext(container)
        let id = context.editingState.id
        // The context stays for the relationship's read: an optimized build would release it after its last use.
        try withExtendedLifetime(context) {
            let note = try #require(context.model(for: seeded.notes[0]) as? HookNote)
            #expect(note.text == "a")
            #expect(note.folder?.name == "Inbox")
        }
        let calls = calls(of: store, for: id)
        #expect(calls.contains(.cachedSnapshots([seeded.notes[0]], id)))
        #expect(calls.contains(.cachedSnapshots([seeded.folder], id)))
        #expect(store.fetchCount(of: "HookNote") == 0)
        #expect(store.fetchCount(of: "HookFolder") == 0)
    }

    @Test func identifiersTheCacheDoesNotAnswerAreFetchedAfterAskingIt() throws {
        var configuration = RecordingStoreConfiguration()
        configuration.cachedEntityNames = ["HookNote"]
        let (container, store) = try makeContainer(configuration)
        let seeded = try seed(container)

        let context = ModelContext(container)
        let id = context.editingState.id
        try withExtendedLifetime(context) {
            let note = try #require(context.model(for: seeded.notes[1]) as? HookNote)
            #expect(note.text == "b")
            #expect(note.folder?.name == "Inbox")
        }
        let calls = calls(of: store, for: id)
        let asked = try #require(calls.firstIndex(of: .cachedSnapshots([seeded.folder], id)))
        let fetched = try #require(calls.firstIndex(of: .fetch("HookFolder", id)))
        #expect(asked < fetched)
        #expect(store.fetchCount(of: "HookNote") == 0)
        #expect(store.fetchCount(of: "HookFolder") == 1)
    }

    @Test func theDefaultCacheHoldsNothing() throws {
        let name = "everything-\(UUID().uuidString)"
        let store = try EverythingStore(EverythingStoreConfiguration(name: name), migrationPlan: nil)
        let identifier = try PersistentIdentifier.identifier(for: name, entityName: "Cabin", primaryKey: 1)
        #expect(try store.cachedSnapshots(for: [identifier], editingState: EditingState()).isEmpty)
    }

    // MARK: - Snapshots to Reregister

    @Test func snapshotsTheStoreReregistersGiveTheirValuesToTheSavedModelsAsSaved() throws {
        var configuration = RecordingStoreConfiguration()
        configuration.stampsRevisions = true
        let (container, _) = try makeContainer(configuration)
        let context = ModelContext(container)
        let note = HookNote(text: "a")
        context.insert(note)
        try context.save()
        #expect(note.revision == 1)
        #expect(!context.hasChanges)

        note.text = "b"
        try context.save()
        #expect(note.revision == 2)
        #expect(!context.hasChanges)
        #expect(context.changedModelsArray.isEmpty)
        // The value is the saved one: a rollback keeps it.
        context.rollback()
        #expect(note.revision == 2)
        #expect(note.text == "b")
    }

    // MARK: - Related Snapshots

    @Test(arguments: [true, false])
    func relatedSnapshotsOfAFetchAnswerTheReadsOfThoseModels(returnsRelatedSnapshots: Bool) throws {
        var configuration = RecordingStoreConfiguration()
        configuration.returnsRelatedSnapshots = returnsRelatedSnapshots
        let (container, store) = try makeContainer(configuration)
        _ = try seed(container)

        let context = ModelContext(container)
        try withExtendedLifetime(context) {
            let notes = try context.fetch(FetchDescriptor<HookNote>())
            #expect(notes.map { $0.folder?.name } == ["Inbox", "Inbox"])
        }
        #expect(store.fetchCount(of: "HookFolder") == (returnsRelatedSnapshots ? 0 : 1))
    }

    @Test func aRelatedSnapshotOfAModelSavedSinceIsNotUsed() throws {
        var configuration = RecordingStoreConfiguration()
        configuration.returnsRelatedSnapshots = true
        let (container, _) = try makeContainer(configuration)
        let seeded = try seed(container)

        let reader = ModelContext(container)
        try withExtendedLifetime(reader) {
            // The fetch returns the folder's snapshot as related; another context then renames the folder.
            let notes = try reader.fetch(FetchDescriptor<HookNote>())
            let writer = ModelContext(container)
            let folder = try #require(writer.model(for: seeded.folder) as? HookFolder)
            folder.name = "Archive"
            try writer.save()
            #expect(notes[0].folder?.name == "Archive")
        }
    }

    // MARK: - Deleting Related Models

    @Test func aDeletionSendsTheModelsWhoseRelationshipsLoseTheDeletedOneAsUpdated() throws {
        let (container, store) = try makeContainer(RecordingStoreConfiguration())
        let seeded = try seed(container)

        let context = ModelContext(container)
        let note = try #require(context.model(for: seeded.notes[0]) as? HookNote)
        context.delete(note)
        try context.save()
        let request = try #require(store.saveRequests.last)
        #expect(request.deleted.map(\.persistentIdentifier) == [seeded.notes[0]])
        #expect(request.updated.map(\.persistentIdentifier) == [seeded.folder])
        #expect(danglingReferences(in: store.snapshots).isEmpty)

        // A folder deleted without loading its notes leaves them without a folder.
        try context.delete(model: HookFolder.self)
        try context.save()
        #expect(danglingReferences(in: store.snapshots).isEmpty)
        let remaining = try #require(store.snapshots.first { $0.persistentIdentifier == seeded.notes[1] })
        guard case .toOne(nil)? = remaining.values["folder"] else {
            Issue.record("the note still names its deleted folder: \(String(describing: remaining.values["folder"]))")
            return
        }
    }

    @Test func aDeletionLeavesNoReferenceToTheDeletedModelInTheJSONFile() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftdata-json-\(UUID().uuidString)")
        let fileURL = directory.appendingPathComponent("cabins.json")
        let schema = Schema([Cabin.self, CabinGuest.self])
        func makeContainer() throws -> ModelContainer {
            try ModelContainer(
                for: schema, configurations: [JSONStoreConfiguration(name: "Cabins", schema: schema, fileURL: fileURL)])
        }
        do {
            let context = ModelContext(try makeContainer())
            let pines = Cabin(name: "Pines", beds: 4, opened: .distantPast)
            context.insert(pines)
            pines.guests = [CabinGuest(name: "Aino"), CabinGuest(name: "Eero"), CabinGuest(name: "Ilta")]
            try context.save()
        }
        let context = ModelContext(try makeContainer())
        let aino = try #require(
            try context.fetch(FetchDescriptor<CabinGuest>(predicate: #Predicate { $0.name == "Aino" })).first)
        context.delete(aino)
        try context.save()
        try context.delete(model: CabinGuest.self, where: #Predicate { $0.name == "Eero" })
        try context.save()

        let snapshots = try JSONDecoder().decode([DefaultSnapshot].self, from: Data(contentsOf: fileURL))
        #expect(snapshots.count == 2)
        #expect(danglingReferences(in: snapshots).isEmpty)
        let reopened = ModelContext(try makeContainer())
        let pines = try #require(try reopened.fetch(FetchDescriptor<Cabin>()).first)
        #expect(pines.guests.map(\.name) == ["Ilta"])
    }

    /// The identifiers that snapshots' relationships name and no snapshot has.
    private func danglingReferences(in snapshots: [DefaultSnapshot]) -> [PersistentIdentifier] {
        let present = Set(snapshots.map(\.persistentIdentifier))
        var dangling: [PersistentIdentifier] = []
        for snapshot in snapshots {
            for value in snapshot.values.values {
                switch value {
                case .toOne(let target?): dangling += [target].filter { !present.contains($0) }
                case .toMany(let targets): dangling += targets.filter { !present.contains($0) }
                case .toOne(nil), .attribute: break
                }
            }
        }
        return dangling
    }
}

/// Hands a context's last reference to another thread.
private final class ContextHandoff: @unchecked Sendable {
    // @unchecked: the test sets `context` before starting the thread and reads nothing until the thread has set it
    // to nil, so one thread at a time uses it.
    var context: ModelContext?
}
