import Foundation
import Testing

@testable import SwiftData

/// A model that holds values it has not loaded (attributes `propertiesToFetch` left out, relationships of a row a
/// batch could not read) saves the values it changed and leaves the others as they are stored.
@Suite struct PartlyLoadedSaveTests {
    @Test func changingTwoAttributesOfAPartlyFetchedModelWritesOnlyThose() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Trip.self, at: url)
        let setup = ModelContext(container)
        let trip = Trip(name: "rome", destination: "Italy", budget: 10)
        trip.rating = 5
        setup.insert(trip)
        trip.livingAccommodation = LivingAccommodation(name: "hotel", address: "via 1")
        try setup.save()

        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Trip>()
        descriptor.propertiesToFetch = [\.name, \.destination]
        let partial = try #require(try context.fetch(descriptor).first)
        partial.name = "roma"
        partial.destination = "Italia"
        try context.save()

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.name == "roma" && stored.destination == "Italia")
        #expect(stored.budget == 10 && stored.rating == 5)
        #expect(stored.livingAccommodation?.name == "hotel")
    }

    /// A batch whose rows cannot be read gives models that load on first access; changing two attributes of one
    /// keeps its stored to-one link.
    @Test func changingAModelOfAnUnreadableBatchKeepsItsStoredLinks() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Trip.self, at: url)
        let setup = ModelContext(container)
        let trip = Trip(name: "rome", destination: "Italy")
        setup.insert(trip)
        trip.bucketList = [BucketListItem(title: "Colosseum")]
        try setup.save()
        // Another program wrote a value this build cannot read: the batch holding the row cannot be read.
        try runSQLite(url, "UPDATE BucketListItem SET isDone = 'not a flag';")

        let context = ModelContext(container)
        let batched = try context.fetch(FetchDescriptor<BucketListItem>(), batchSize: 1)
        let item = try #require(batched.first)
        item.title = "Forum"
        item.isDone = true
        try context.save()
        #expect(try sqliteRows(url, "SELECT title, isDone, trip IS NOT NULL FROM BucketListItem") == ["Forum|1|1"])
    }
}
