import Foundation
import Testing

@testable import SwiftData

/// The registry holds a context's saved models without retaining them: a released model leaves it at once, and
/// the models that stay are found whatever was released around them.
@Suite struct RegistryTests {
    @Test(arguments: [1, 2, 3])
    func releasedModelsLeaveAndTheOthersStayFindable(seed: UInt64) throws {
        let container = try makeInMemoryContainer(Trip.self)
        let writer = ModelContext(container)
        // Trips and items get the same primary keys, so their identifiers share hash homes.
        for number in 0..<300 {
            let trip = Trip(name: "trip\(number)", destination: "d")
            writer.insert(trip)
            trip.bucketList = [BucketListItem(title: "item\(number)")]
        }
        try writer.save()

        let context = ModelContext(container)
        var trips: [Trip]? = try context.fetch(FetchDescriptor<Trip>())
        var items: [BucketListItem]? = try context.fetch(FetchDescriptor<BucketListItem>())
        let tripIDs = trips!.map(\.persistentModelID)
        let itemIDs = items!.map(\.persistentModelID)
        #expect(Set(tripIDs.map(\.entityName)) == ["Trip"])

        // Keep a scattered half of each (a multiplicative hash of the position picks), release the rest.
        func kept(_ position: Int) -> Bool { (UInt64(position) &* 0x9E37_79B9_7F4A_7C15 &+ seed) >> 63 == 0 }
        let keptTrips = trips!.indices.filter(kept).map { trips![$0] }
        let keptItems = items!.indices.filter { kept($0 + 1_000) }.map { items![$0] }
        trips = nil
        items = nil

        let keptTripIDs = Set(keptTrips.map(\.persistentModelID))
        for id in tripIDs {
            let found: Trip? = context.registeredModel(for: id)
            #expect((found != nil) == keptTripIDs.contains(id))
            if let found { #expect(found.persistentModelID == id) }
        }
        let keptItemIDs = Set(keptItems.map(\.persistentModelID))
        // Kept to the end of the checks: an optimized build may release a variable after its last use.
        withExtendedLifetime(keptItems) {
            for id in itemIDs {
                let found: BucketListItem? = context.registeredModel(for: id)
                #expect((found != nil) == keptItemIDs.contains(id))
            }
        }
        // A fetch gives back the kept instances and new ones for the released rows.
        let again = try context.fetch(FetchDescriptor<Trip>())
        #expect(again.count == 300)
        #expect(Set(again.map(ObjectIdentifier.init)).isSuperset(of: keptTrips.map(ObjectIdentifier.init)))
    }

    /// `BackingData.persistentModelID` is settable: a model whose identifier changed after it was registered still
    /// leaves the registry when it is released, and lookups by either identifier stay safe.
    @Test func aModelWhoseIdentifierChangedStillLeavesWhenReleased() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let writer = ModelContext(container)
        for name in ["a", "b"] { writer.insert(Trip(name: name, destination: "d")) }
        try writer.save()

        let context = ModelContext(container)
        var trips: [Trip]? = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let original = trips![0].persistentModelID
        let other = trips![1].persistentModelID
        trips![0].persistentBackingData.persistentModelID = other
        trips = nil
        let byOriginal: Trip? = context.registeredModel(for: original)
        let byOther: Trip? = context.registeredModel(for: other)
        #expect(byOriginal == nil && byOther == nil)
        #expect(try context.fetch(FetchDescriptor<Trip>()).count == 2)
    }

    /// Registering backing data that is registered already leaves it registered, so its release still removes
    /// its entry.
    @Test func registeringTheSameBackingDataAgainKeepsItRegistered() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let writer = ModelContext(container)
        writer.insert(Trip(name: "a", destination: "d"))
        try writer.save()

        let context = ModelContext(container)
        var trip: Trip? = try context.fetch(FetchDescriptor<Trip>()).first
        let identifier = try #require(trip).persistentModelID
        do {
            let storage = try #require(trip).storage
            #expect(context.registered.insert(storage) === storage)
            #expect(storage.isRegistered)
        }
        trip = nil
        #expect(context.registered.count == 0)
        let found: Trip? = context.registeredModel(for: identifier)
        #expect(found == nil)
    }
}

/// Related models refer to each other; when their context is released, the relationships they loaded are unloaded,
/// so that they do not keep each other alive.
@Suite struct ReleasedContextTests {
    @Test func relatedModelsAreReleasedWithTheirContext() throws {
        let container = try makeInMemoryContainer(Trip.self)
        weak var trip: Trip?
        weak var item: BucketListItem?
        weak var fetchedTrip: Trip?
        weak var fetchedItem: BucketListItem?
        do {
            let context = ModelContext(container)
            let newTrip = Trip(name: "Lapland", destination: "Inari", budget: 900)
            let newItem = BucketListItem(title: "Northern lights")
            context.insert(newTrip)
            newTrip.bucketList = [newItem]
            try context.save()
            trip = newTrip
            item = newItem
        }
        #expect(trip == nil)
        #expect(item == nil)
        do {
            // Loaded by reading, from both sides.
            let context = ModelContext(container)
            let loaded = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
            #expect(loaded.bucketList.first?.trip === loaded)
            fetchedTrip = loaded
            fetchedItem = loaded.bucketList.first
        }
        #expect(fetchedTrip == nil)
        #expect(fetchedItem == nil)
    }

    @Test func aModelKeptAfterItsContextKeepsItsAttributesAndRereadsItsRelationships() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let kept: Trip
        do {
            let context = ModelContext(container)
            let trip = Trip(name: "Lapland", destination: "Inari", budget: 900)
            context.insert(trip)
            trip.bucketList = [BucketListItem(title: "Northern lights")]
            trip.livingAccommodation = LivingAccommodation(name: "Cabin", address: "Lake road")
            try context.save()
            kept = trip
        }
        #expect(kept.modelContext == nil)
        #expect(kept.name == "Lapland")
        #expect(kept.budget == 900)
        // The loaded relationships were let go with the context; they are read again through the container.
        #expect(kept.bucketList.map(\.title) == ["Northern lights"])
        #expect(kept.livingAccommodation?.name == "Cabin")
        // A new context reads the same links.
        let context = ModelContext(container)
        let reread = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(reread.bucketList.map(\.title) == ["Northern lights"])
        #expect(reread.livingAccommodation?.name == "Cabin")
    }
}

/// A save registers the inserted models something still holds, so fetches find those instances; the ones only the
/// context held are released with its list of inserts.
@Suite struct SavedInsertRegistrationTests {
    @Test func insertedModelsHeldAfterTheSaveAreRegisteredAndTheOthersReleased() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let heldByVariable = Trip(name: "variable", destination: "d")
        context.insert(heldByVariable)
        let heldByRelationship = BucketListItem(title: "linked")
        heldByVariable.bucketList = [heldByRelationship]
        weak var released: Trip?
        do {
            let trip = Trip(name: "released", destination: "d")
            context.insert(trip)
            released = trip
        }
        try context.save()

        #expect(released == nil)
        let variableFound: Trip? = context.registeredModel(for: heldByVariable.persistentModelID)
        let relationshipFound: BucketListItem? = context.registeredModel(for: heldByRelationship.persistentModelID)
        #expect(variableFound === heldByVariable)
        #expect(relationshipFound === heldByRelationship)
        // The fetch gives back the held instance and a new one for the released row, with its values.
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["released", "variable"])
        #expect(trips[1] === heldByVariable)
    }

    @Test func insertedModelsHeldOnlyThroughTheInsertedModelsArrayAreRegistered() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        context.insert(Trip(name: "a", destination: "d"))
        context.insert(Trip(name: "b", destination: "d"))
        // The array shares its storage with the context's list of inserts.
        let pending = context.insertedModelsArray
        try context.save()

        for model in pending {
            let found: Trip? = context.registeredModel(for: model.persistentModelID)
            #expect(found === model)
        }
        let fetched = try context.fetch(FetchDescriptor<Trip>())
        #expect(Set(fetched.map(ObjectIdentifier.init)) == Set(pending.map { ObjectIdentifier($0) }))
    }
}
