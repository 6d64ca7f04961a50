import Foundation
import SwiftData
import Testing

/// A to-many relationship holds each model once, in memory as in the store: appending or assigning a model that
/// it holds already keeps one (Core Data's relationships are sets).
@Suite struct ToManyDuplicatesTests {
    /// Apple's sample shape: setting the to-one side adds the model to the inverse, and the app appends it too.
    @Test func settingTheInverseThenAppendingKeepsOne() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let context = ModelContext(try makeContainer(Trip.self, at: url))
        let trip = Trip(name: "rome", destination: "Italy")
        context.insert(trip)
        let item = BucketListItem(title: "Colosseum")
        item.trip = trip
        trip.bucketList.append(item)
        #expect(trip.bucketList.count == 1)
        try context.save()

        let reopened = ModelContext(try makeContainer(Trip.self, at: url))
        let stored = try #require(try reopened.fetch(FetchDescriptor<Trip>()).first)
        #expect(stored.bucketList.count == trip.bucketList.count)
    }

    /// Many-to-many: appending twice and assigning an array with repeats keep each tag once, and a predicate on
    /// the count agrees in SQL and in memory.
    @Test func appendingOrAssigningRepeatsKeepsOne() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: "rome", destination: "Italy")
        let food = TripTag(label: "food")
        let art = TripTag(label: "art")
        context.insert(trip)
        trip.tags.append(food)
        trip.tags.append(food)
        #expect(trip.tags.map(\.label) == ["food"])
        #expect(food.trips.count == 1)
        trip.tags = [art, food, art]
        #expect(trip.tags.map(\.label) == ["art", "food"])
        try context.save()

        let twoTags = #Predicate<Trip> { $0.tags.count == 2 }
        #expect(try context.fetch(FetchDescriptor(predicate: twoTags)).count == 1)
        #expect(try [trip].filter { try twoTags.evaluate($0) }.count == 1)
        let other = ModelContext(container)
        let stored = try #require(try other.fetch(FetchDescriptor<Trip>()).first)
        #expect(Set(stored.tags.map(\.label)) == ["art", "food"])
        #expect(stored.tags.count == 2)
    }
}
