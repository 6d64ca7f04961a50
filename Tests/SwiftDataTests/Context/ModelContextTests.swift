import Foundation
import SwiftData
import Testing

@Suite struct ModelContextTests {
    @Test func identifiersAreTemporaryUntilSavedThenStableAcrossReopen() throws {
        let directory = try TemporaryDirectory()
        let trip = Trip(name: "Lisbon", destination: "Portugal")
        let temporary = trip.persistentModelID
        let permanent: PersistentIdentifier
        do {
            let context = ModelContext(try makeContainer(Trip.self, at: directory.store()))
            context.insert(trip)
            #expect(trip.persistentModelID == temporary)
            try context.save()
            permanent = trip.persistentModelID
            #expect(permanent != temporary)
            #expect(permanent.entityName == "Trip")
            #expect(permanent.storeIdentifier != nil)
            let encoded = try JSONEncoder().encode(permanent)
            #expect(try JSONDecoder().decode(PersistentIdentifier.self, from: encoded) == permanent)
        }
        let context = ModelContext(try makeContainer(Trip.self, at: directory.store()))
        let reopened = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(reopened.persistentModelID == permanent)
        let byID = try #require(context.model(for: permanent) as? Trip)
        #expect(byID === reopened)
    }

    @Test func contextHoldsOneInstancePerIdentifier() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        context.insert(Trip(name: "A", destination: "X"))
        try context.save()
        let first = try context.fetch(FetchDescriptor<Trip>())
        let second = try context.fetch(FetchDescriptor<Trip>())
        #expect(first.count == 1)
        #expect(first[0] === second[0])
        let registered: Trip? = context.registeredModel(for: first[0].persistentModelID)
        #expect(registered === first[0])
    }

    @Test func unchangedModelsNoLongerReferencedAreReleased() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        context.insert(Trip(name: "A", destination: "X"))
        try context.save()
        weak var weakTrip: Trip?
        let identifier: PersistentIdentifier
        do {
            let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
            weakTrip = trip
            identifier = trip.persistentModelID
        }
        #expect(weakTrip == nil)
        let released: Trip? = context.registeredModel(for: identifier)
        #expect(released == nil)
    }

    @Test func trackingInsertedChangedAndDeletedModels() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        #expect(!context.hasChanges)
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        #expect(context.hasChanges)
        #expect(trip.hasChanges)
        #expect(trip.modelContext === context)
        #expect(context.insertedModelsArray.count == 1)
        try context.save()
        #expect(!context.hasChanges)
        #expect(!trip.hasChanges)
        trip.name = "B"
        #expect(context.changedModelsArray.count == 1)
        #expect(trip.hasChanges)
        try context.save()
        context.delete(trip)
        #expect(trip.isDeleted)
        #expect(context.deletedModelsArray.count == 1)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
        var persistedOnly = FetchDescriptor<Trip>()
        persistedOnly.includePendingChanges = false
        #expect(try context.fetchCount(persistedOnly) == 1)
        try context.save()
        #expect(trip.modelContext == nil)
        #expect(try context.fetchCount(persistedOnly) == 0)
    }

    @Test func deletingAnUnsavedInsertDiscardsIt() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        context.delete(trip)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func rollbackRestoresLastSavedState() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let kept = Trip(name: "Kept", destination: "X", budget: 10)
        context.insert(kept)
        try context.save()
        kept.name = "Changed"
        kept.budget = 99
        let added = Trip(name: "Added", destination: "Y")
        context.insert(added)
        context.delete(kept)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(kept.name == "Kept")
        #expect(kept.budget == 10)
        #expect(!kept.isDeleted)
        #expect(added.modelContext == nil)
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Kept"])
    }

    @Test func rollbackRestoresEachChangedPropertyAsSavedAfterRepeatedChanges() throws {
        let container = try makeInMemoryContainer(Pet.self, Owner.self)
        let writer = ModelContext(container)
        let ann = Owner(name: "Ann")
        writer.insert(ann)
        let rex = Pet(name: "Rex")
        writer.insert(rex)
        rex.owner = ann
        try writer.save()

        // A fetched model: its saved values come from the row.
        let context = ModelContext(container)
        let pet = try #require(try context.fetch(FetchDescriptor<Pet>()).first)
        let bob = Owner(name: "Bob")
        context.insert(bob)
        pet.name = "Max"
        pet.name = "Moe"
        pet.owner = bob
        pet.owner = nil
        context.rollback()
        #expect(pet.name == "Rex")
        #expect(pet.owner?.name == "Ann")
        #expect(!pet.hasChanges)

        // Saved, changed again, rolled back: the values of the last save come back, not the first ones.
        pet.name = "Max"
        try context.save()
        pet.name = "Moe"
        context.rollback()
        #expect(pet.name == "Max")
        #expect(try ModelContext(container).fetch(FetchDescriptor<Pet>()).map(\.name) == ["Max"])
    }

    @Test func transactionSavesWhatTheBlockChanged() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        try context.transaction {
            context.insert(Trip(name: "A", destination: "X"))
        }
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func savedChangesAreVisibleToOtherContexts() throws {
        let (writer, reader, trip, seen) = try savedInOneContextSeenInAnother(Trip(name: "A", destination: "X"))
        #expect(seen !== trip)
        trip.name = "B"
        try writer.save()
        _ = try reader.fetch(FetchDescriptor<Trip>())
        #expect(seen.name == "B")
    }

    @Test func mainContextIsOneInstanceWithAutosaveOn() async throws {
        let container = try makeInMemoryContainer(Trip.self)
        let (same, autosave) = await MainActor.run {
            (container.mainContext === container.mainContext, container.mainContext.autosaveEnabled)
        }
        #expect(same)
        #expect(autosave)
        #expect(!ModelContext(container).autosaveEnabled)
    }

    @Test func deleteAllDataEmptiesTheStores() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        context.insert(Trip(name: "A", destination: "X"))
        try context.save()
        container.deleteAllData()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func saveNotificationsCarryIdentifiers() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        let inserted = try identifiersInDidSave(of: context, under: .insertedIdentifiers) { try context.save() }
        #expect(inserted == [trip.persistentModelID])
    }
}
