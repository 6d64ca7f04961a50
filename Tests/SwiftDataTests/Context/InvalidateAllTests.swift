import Foundation
import SwiftData
import Testing

/// Whether models were deleted each time a `didSave` observer looked, collected under a lock because observers
/// run on the posting thread.
private final class DeletionProbe: @unchecked Sendable {
    // @unchecked: every access to `sightings` holds `lock`; `models` is only read, and only on the thread that
    // posts, which is the test's.
    private let lock = NSLock()
    private let models: [any PersistentModel]
    private var seen: [[Bool]] = []

    init(_ models: [any PersistentModel]) { self.models = models }

    func look() {
        let deleted = models.map(\.isDeleted)
        lock.withLock { seen.append(deleted) }
    }

    var sightings: [[Bool]] { lock.withLock { seen } }
}

/// What a context does when the container's data is deleted (`deleteAllData()`, `erase()`): the models it held
/// from the stores whose rows were deleted leave it as deleted, unsaved edits included, and it announces them.
@Suite struct InvalidateAllTests {
    @Test func aModelWithUnsavedEditsLeavesAsDeletedAndTheNextSaveSucceeds() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(TripTag.self, Trip.self, at: url)
        let context = ModelContext(container)
        let edited = TripTag(label: "a")
        let deleted = TripTag(label: "d")
        context.insert(edited)
        context.insert(deleted)
        try context.save()
        edited.label = "b"
        context.delete(deleted)
        let notifications = ContextNotifications(of: context)

        container.deleteAllData()
        context.insert(TripTag(label: "new"))
        try context.save()
        #expect(try sqliteRows(url, "SELECT label FROM TripTag") == ["new"])
        #expect(notifications.names == [ModelContext.didSave, ModelContext.willSave, ModelContext.didSave])
        #expect(
            Set(try #require(notifications.identifiers(.invalidatedAllIdentifiers, at: 0)))
                == [edited.persistentModelID, deleted.persistentModelID])
        #expect(edited.isDeleted)
        #expect(deleted.isDeleted)
        #expect(context.registeredModel(for: edited.persistentModelID) as TripTag? == nil)
        #expect(!context.hasChanges)

        // Nothing of the discarded models is left to write.
        try context.save()
        #expect(notifications.names.count == 3)
    }

    @Test func deletingAllDataTellsOnlyOfTheStoresItDeleted() throws {
        let directory = try TemporaryDirectory()
        let trips = directory.store("trips.store")
        let gadgets = directory.store("gadgets.store")
        do {
            let setup = ModelContext(try makeContainer(Gadget.self, at: gadgets))
            setup.insert(Gadget(name: "kept", serial: 1))
            try setup.save()
        }
        let container = try ModelContainer(
            for: Trip.self, Gadget.self,
            configurations: ModelConfiguration("trips", schema: Schema([Trip.self]), url: trips),
            ModelConfiguration("gadgets", schema: Schema([Gadget.self]), url: gadgets, allowsSave: false)
        )
        let context = ModelContext(container)
        let trip = Trip(name: "rome", destination: "Italy")
        context.insert(trip)
        try context.save()
        let gadget = try #require(try context.fetch(FetchDescriptor<Gadget>()).first)
        let notifications = ContextNotifications(of: context)

        container.deleteAllData()
        #expect(try context.fetch(FetchDescriptor<Gadget>()).map(\.name) == ["kept"])
        #expect(notifications.identifiers(.invalidatedAllIdentifiers) == [trip.persistentModelID])
        #expect(trip.isDeleted)
        #expect(!gadget.isDeleted)
        #expect(context.registeredModel(for: gadget.persistentModelID) as Gadget? === gadget)
    }

    @Test func deletingAllDataOfAReadOnlyStoreTellsNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let setup = ModelContext(try makeContainer(Trip.self, at: url))
            setup.insert(Trip(name: "rome", destination: "Italy"))
            try setup.save()
        }
        let container = try makeContainer(Trip.self, at: url, allowsSave: false)
        let context = ModelContext(container)
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        let notifications = ContextNotifications(of: context)

        container.deleteAllData()
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["rome"])
        #expect(notifications.names.isEmpty)
        #expect(!trip.isDeleted)
    }

    @Test func anEraseThatFailsPartwayTellsOnlyOfTheStoresItErased() throws {
        let directory = try TemporaryDirectory()
        let trips = directory.store("trips.store")
        let gadgets = directory.store("gadgets.store")
        let container = try ModelContainer(
            for: Trip.self, Gadget.self,
            configurations: ModelConfiguration("trips", schema: Schema([Trip.self]), url: trips),
            ModelConfiguration("gadgets", schema: Schema([Gadget.self]), url: gadgets)
        )
        let context = ModelContext(container)
        let trip = Trip(name: "rome", destination: "Italy")
        let gadget = Gadget(name: "kept", serial: 1)
        context.insert(trip)
        context.insert(gadget)
        try context.save()
        try runSQLite(gadgets, "CREATE TRIGGER keep BEFORE DELETE ON Gadget BEGIN SELECT RAISE(ABORT, 'kept'); END;")
        let notifications = ContextNotifications(of: context)

        #expect(throws: (any Error).self) { try container.erase() }
        #expect(try sqliteRows(trips, "SELECT count(*) FROM Trip") == ["0"])
        #expect(try context.fetch(FetchDescriptor<Gadget>()).map(\.name) == ["kept"])
        #expect(notifications.identifiers(.invalidatedAllIdentifiers) == [trip.persistentModelID])
        #expect(trip.isDeleted)
        #expect(!gadget.isDeleted)
    }

    @Test func didSaveObserversSeeTheInvalidatedModelsDeleted() throws {
        let container = try makeInMemoryContainer(TripTag.self, Trip.self)
        let context = ModelContext(container)
        let tags = [TripTag(label: "a"), TripTag(label: "b")]
        tags.forEach(context.insert)
        try context.save()
        let probe = DeletionProbe(tags)
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { _ in probe.look() }
        defer { NotificationCenter.default.removeObserver(observer) }

        container.deleteAllData()
        _ = try context.fetch(FetchDescriptor<TripTag>())
        #expect(probe.sightings == [[true, true]])
    }

    @Test func aContextThatHeldNoSavedModelsPostsNothing() throws {
        let container = try makeInMemoryContainer(TripTag.self, Trip.self)
        let writer = ModelContext(container)
        writer.insert(TripTag(label: "saved"))
        try writer.save()
        let context = ModelContext(container)
        context.insert(TripTag(label: "pending"))
        let notifications = ContextNotifications(of: context)

        container.deleteAllData()
        #expect(try context.fetch(FetchDescriptor<TripTag>()).map(\.label) == ["pending"])
        #expect(notifications.names.isEmpty)
    }
}
