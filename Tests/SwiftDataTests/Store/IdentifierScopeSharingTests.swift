import Foundation
import Testing

@testable import SwiftData

/// The SQLite store keeps one identifier scope per entity while it is open: the identifiers of an entity's rows from
/// any read, save or history share it, so comparing them compares references.
@Suite struct IdentifierScopeSharingTests {
    @Test func savesAndReadsOfAnEntityShareOneScope() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let writer = ModelContext(container)
        let trip = Trip(name: "Lisbon", destination: "Portugal")
        let item = BucketListItem(title: "Tram 28")
        writer.insert(trip)
        trip.bucketList.append(item)
        try writer.save()
        let saved = trip.persistentModelID.id.scope
        let savedItem = item.persistentModelID.id.scope

        // Two fetches in two contexts, and identifiers alone.
        let first = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        let second = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        let identifier = try #require(try ModelContext(container).fetchIdentifiers(FetchDescriptor<Trip>()).first)
        #expect(first.persistentModelID.id.scope === saved)
        #expect(second.persistentModelID.id.scope === saved)
        #expect(identifier.id.scope === saved)
        #expect(first.persistentModelID == trip.persistentModelID)

        // A to-one target the item's row names, and the models of a to-many relationship loaded later.
        let reader = ModelContext(container)
        let fetchedItem = try #require(try reader.fetch(FetchDescriptor<BucketListItem>()).first)
        #expect(fetchedItem.persistentModelID.id.scope === savedItem)
        #expect(try #require(fetchedItem.trip).persistentModelID.id.scope === saved)
        let loaded = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(try #require(loaded.bucketList.first).persistentModelID.id.scope === savedItem)

        // Another save of the same entity.
        let porto = Trip(name: "Porto", destination: "Portugal")
        reader.insert(porto)
        try reader.save()
        #expect(porto.persistentModelID.id.scope === saved)
    }

    @Test func historyNamesModelsWithTheStoresScopes() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let trip = Trip(name: "Lisbon", destination: "Portugal")
        context.insert(trip)
        try context.save()
        let transaction = try #require(
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        let change = try #require(transaction.changes.first)
        #expect(change.changedPersistentIdentifier == trip.persistentModelID)
        #expect(change.changedPersistentIdentifier.id.scope === trip.persistentModelID.id.scope)
    }

    @Test func rowsOfASubclassReadThroughTheirSuperclassShareTheSubclassScope() throws {
        let container = try makeInMemoryContainer(HSVehicle.self, HSTruck.self, HSTipper.self)
        let writer = ModelContext(container)
        let truck = HSTruck(name: "a", code: "T1", payload: 1, plate: nil)
        writer.insert(truck)
        writer.insert(HSVehicle(name: "b", code: "V1"))
        try writer.save()

        let identifiers = try ModelContext(container).fetchIdentifiers(FetchDescriptor<HSVehicle>())
        let truckIdentifier = try #require(identifiers.first { $0.entityName == "HSTruck" })
        #expect(truckIdentifier.id.scope === truck.persistentModelID.id.scope)
        let vehicles = try ModelContext(container).fetch(FetchDescriptor<HSVehicle>())
        let fetchedTruck = try #require(vehicles.first { $0 is HSTruck })
        #expect(fetchedTruck.persistentModelID.id.scope === truck.persistentModelID.id.scope)
    }

    /// Scopes are a store's: another store object of the same file makes its own, and identifiers stay equal.
    @Test func identifiersOfTwoOpeningsOfAStoreAreEqualWithoutSharingScopes() throws {
        let directory = try TemporaryDirectory()
        let context = ModelContext(try makeContainer(Trip.self, at: directory.store()))
        let trip = Trip(name: "Lisbon", destination: "Portugal")
        context.insert(trip)
        try context.save()

        let other = ModelContext(try makeContainer(Trip.self, at: directory.store()))
        let reopened = try #require(try other.fetch(FetchDescriptor<Trip>()).first).persistentModelID
        #expect(reopened.id.scope !== trip.persistentModelID.id.scope)
        #expect(reopened == trip.persistentModelID)
        #expect(reopened.hashValue == trip.persistentModelID.hashValue)
        #expect(!(reopened < trip.persistentModelID) && !(trip.persistentModelID < reopened))
    }
}
