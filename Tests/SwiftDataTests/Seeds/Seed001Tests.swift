import Foundation
import SwiftData
import Testing

// Seed 001 ("Dive deeper into SwiftData"): Trip with its bucket list and accommodation, queried as the session
// shows. The fixtures' Trip plays the session's Trip.

@Suite struct Seed001Tests {
    @Test func containerForTripKnowsRelatedTypesAndQueriesThroughTheAccommodation() throws {
        let container = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(container.schema.entity(for: BucketListItem.self) != nil)
        #expect(container.schema.entity(for: LivingAccommodation.self) != nil)
        let context = ModelContext(container)
        for (index, (destination, hotel)) in [("Paris", "Grand Hotel"), ("Paris", "Ritz"), ("Rome", "Grand Hotel")]
            .enumerated()
        {
            let trip = Trip(
                name: "t\(index)", destination: destination,
                startDate: Date(timeIntervalSinceReferenceDate: Double(index)))
            trip.livingAccommodation = LivingAccommodation(name: hotel, address: "")
            context.insert(trip)
        }
        try context.save()

        let hotelDescriptor = FetchDescriptor<Trip>(
            predicate: #Predicate { trip in
                trip.livingAccommodation?.name == "Grand Hotel"
            }
        )
        #expect(try context.fetch(hotelDescriptor).map(\.name).sorted() == ["t0", "t2"])

        var sortedDescriptor = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.destination == "Paris" },
            sortBy: [SortDescriptor(\.startDate, order: .reverse)]
        )
        sortedDescriptor.fetchOffset = 0
        sortedDescriptor.fetchLimit = 20
        #expect(try context.fetch(sortedDescriptor).map(\.name) == ["t1", "t0"])

        try context.enumerate(FetchDescriptor<Trip>()) { trip in
            trip.budget = 1
        }
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.budget == 1 })) == 3)
    }

    @Test func deletedModelsStayInTheContextUntilSaved() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        try context.save()
        context.delete(trip)
        #expect(trip.modelContext === context)
        #expect(context.deletedModelsArray.count == 1)
        try? context.save()
        #expect(!context.hasChanges)
        #expect(trip.modelContext == nil)
    }
}
