import Foundation
import SwiftData
import Testing

@Suite struct PropagationTests {
    @Test func registeredModelsTakeOtherContextsSavedValuesAndNotifyObservers() throws {
        let (writer, reader, trip, seen) = try savedInOneContextSeenInAnother(Trip(name: "Old", destination: "X"))
        trip.name = "New"
        try writer.save()
        let notified = try observesChange({ _ = seen.name }) {
            _ = try reader.fetchCount(FetchDescriptor<BucketListItem>())
        }
        #expect(notified)
        #expect(seen.name == "New")
    }

    @Test func unsavedLocalChangesWinOverOtherContextsSaves() throws {
        let (writer, reader, trip, seen) = try savedInOneContextSeenInAnother(
            Trip(name: "Old", destination: "X", budget: 1))
        seen.budget = 2
        trip.name = "New"
        trip.budget = 3
        try writer.save()
        _ = try reader.fetch(FetchDescriptor<Trip>())
        #expect(seen.name == "Old")
        #expect(seen.budget == 2)
        try reader.save()
        let stored = try #require(try ModelContext(writer.container).fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.name == "New")
        #expect(stored.budget == 2)
    }

    @Test func aModelSavedOrRolledBackWithChangesTakesTheValuesOthersSavedMeanwhile() throws {
        for rollsBack in [false, true] {
            let (writer, reader, trip, seen) = try savedInOneContextSeenInAnother(
                Trip(name: "Old", destination: "X", budget: 1))
            seen.budget = 2
            trip.name = "New"
            try writer.save()
            _ = try reader.fetch(FetchDescriptor<Trip>())
            #expect(seen.name == "Old")
            let notified = try observesChange({ _ = seen.name }) {
                if rollsBack { reader.rollback() } else { try reader.save() }
            }
            #expect(notified)
            #expect(seen.name == "New")
            #expect(seen.budget == (rollsBack ? 1 : 2))
        }
    }

    @Test func deletionsElsewhereDropRegisteredModels() throws {
        let (writer, reader, trip, seen) = try savedInOneContextSeenInAnother(Trip(name: "Gone", destination: "X"))
        writer.delete(trip)
        try writer.save()
        #expect(try reader.fetch(FetchDescriptor<Trip>()).isEmpty)
        #expect(seen.isDeleted)
        #expect(seen.modelContext == nil)
    }

    @Test func relationshipsChangedElsewhereReloadWithTheirObservers() throws {
        let (writer, reader, trip, seen) = try savedInOneContextSeenInAnother(Trip(name: "A", destination: "X"))
        #expect(seen.bucketList.isEmpty)
        trip.bucketList.append(BucketListItem(title: "New item"))
        try writer.save()
        _ = try reader.fetchCount(FetchDescriptor<Trip>())
        #expect(seen.bucketList.map(\.title) == ["New item"])
    }

    @Test func inverseUpdatesNotifyTheOtherSidesObservers() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        let item = BucketListItem(title: "Walk")
        context.insert(item)
        let notified = observesChange({ _ = trip.bucketList }) { item.trip = trip }
        #expect(notified)
    }

    @Test func savedChangesStreamDeliversEverySave() async throws {
        let container = try makeInMemoryContainer(Trip.self)
        let stream = container.savedChanges()
        let context = ModelContext(container)
        context.author = "importer"
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        try context.save()
        trip.name = "B"
        try context.save()
        var iterator = stream.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let second = try #require(await iterator.next())
        #expect(first.insertedIdentifiers == [trip.persistentModelID])
        #expect(first.author == "importer")
        #expect(second.updatedIdentifiers == [trip.persistentModelID])
        #expect(second.insertedIdentifiers.isEmpty)
    }

    @Test func willSaveIsPostedBeforeTheWrite() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        context.insert(Trip(name: "A", destination: "X"))
        nonisolated(unsafe) var countAtWillSave = -1
        // Safe: posted synchronously on this thread inside save(); the count reads another context's store view.
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.willSave, object: context, queue: nil
        ) { _ in
            countAtWillSave = (try? ModelContext(container).fetchCount(FetchDescriptor<Trip>())) ?? -1
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.save()
        #expect(countAtWillSave == 0)
    }
}

@Suite struct AutosaveTests {
    @MainActor
    @Test func mainContextSavesAfterTheTurnThatChangedIt() async throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = container.mainContext
        context.insert(Trip(name: "A", destination: "X"))
        context.insert(Trip(name: "B", destination: "Y"))
        #expect(context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
        await _Concurrency.Task.yield()
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 2)
    }

    @MainActor
    @Test func turningAutosaveOffKeepsChangesPending() async throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = container.mainContext
        context.autosaveEnabled = false
        context.insert(Trip(name: "A", destination: "X"))
        await _Concurrency.Task.yield()
        #expect(context.hasChanges)
    }

    @Test func modelActorContextsAutosaveAfterEachJobWhenEnabled() async throws {
        let container = try makeInMemoryContainer(Trip.self)
        let actor = AutosavingActor(modelContainer: container)
        // The autosave runs on the actor's queue when the job ends, that is when the task running on the actor
        // leaves it; a task of its own ends its job when it finishes, and the actor's next job runs after the save.
        await _Concurrency.Task.detached { await actor.insert(name: "A") }.value
        let pending = await actor.pendingChanges()
        let autosaveError = await actor.autosaveError()
        #expect(pending == false, "\(autosaveError)")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }
}

@ModelActor
actor AutosavingActor {
    func insert(name: String) {
        modelContext.autosaveEnabled = true
        modelContext.insert(Trip(name: name, destination: "x"))
    }

    func pendingChanges() -> Bool { modelContext.hasChanges }

    func autosaveError() -> String { modelContext.lastAutosaveError.map { "\($0)" } ?? "none" }
}
