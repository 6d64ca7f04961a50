import Foundation
import Testing

@testable import SwiftData

/// Relationships of a model whose context was released load through its container.
@Suite struct ReleasedContextRelationshipTests {
    func savedTrip(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        let trip = Trip(name: "Rome", destination: "Italy")
        context.insert(trip)
        trip.bucketList = [BucketListItem(title: "Colosseum"), BucketListItem(title: "Forum")]
        trip.livingAccommodation = LivingAccommodation(name: "Hotel", address: "Via Roma")
        try context.save()
    }

    @Test func unloadedRelationshipsLoadThroughTheContainer() throws {
        let container = try makeInMemoryContainer(Trip.self)
        try savedTrip(container)
        let trip = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.modelContext == nil)
        #expect(trip.bucketList.map(\.title).sorted() == ["Colosseum", "Forum"])
        #expect(trip.livingAccommodation?.name == "Hotel")
        #expect(trip.bucketList.first?.trip?.name == "Rome")
    }

    @Test func loadedRelationshipsStillReadTheirModelsAfterTheContextIsReleased() throws {
        let container = try makeInMemoryContainer(Trip.self)
        try savedTrip(container)
        func fetchLoaded() throws -> Trip {
            let context = ModelContext(container)
            let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
            #expect(trip.modelContext === context)
            #expect(trip.bucketList.count == 2)
            #expect(trip.livingAccommodation != nil)
            return trip
        }
        let trip = try fetchLoaded()
        #expect(trip.bucketList.map(\.title).sorted() == ["Colosseum", "Forum"])
        #expect(trip.livingAccommodation?.address == "Via Roma")
    }

    @Test func modelsReadThroughTheContainerAreReleasedWithTheModelThatReadThem() throws {
        let container = try makeInMemoryContainer(Trip.self)
        try savedTrip(container)
        weak var trip: Trip?
        weak var item: BucketListItem?
        weak var accommodation: LivingAccommodation?
        do {
            let kept = try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
            item = kept.bucketList.first
            accommodation = kept.livingAccommodation
            #expect(item?.trip?.bucketList.count == 2)
            trip = kept
        }
        #expect(trip == nil)
        #expect(item == nil)
        #expect(accommodation == nil)
    }

    @Test func relationshipsLoadAfterTheContainerIsReleasedToo() throws {
        func fetchTrip() throws -> Trip {
            let container = try makeInMemoryContainer(Trip.self)
            try savedTrip(container)
            return try #require(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first)
        }
        let trip = try fetchTrip()
        #expect(trip.bucketList.count == 2)
        #expect(trip.livingAccommodation?.name == "Hotel")
    }
}
