import Foundation
import Testing

@testable import SwiftData

@Suite struct PrefetchTests {
    /// `trips` trips (1,000) with `items` bucket-list items each (10), tagged with one of `tags` tags (5), saved and
    /// read by a fresh context.
    func seededContainer(trips: Int = 1_000, items: Int = 10, tags tagCount: Int = 5) throws -> ModelContainer {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let tags = (0..<tagCount).map { TripTag(label: "tag\($0)") }
        for number in 0..<trips {
            let trip = Trip(name: "trip\(number)", destination: "d")
            context.insert(trip)
            trip.bucketList = (0..<items).map { BucketListItem(title: "item\(number)-\($0)") }
            trip.tags = [tags[number % tagCount]]
            trip.livingAccommodation = LivingAccommodation(name: "hotel\(number)", address: "a")
        }
        try context.save()
        return container
    }

    func statements(_ container: ModelContainer, _ body: () throws -> Void) rethrows -> Int {
        let store = container.sqliteStores[0]
        let before = store.statementCount
        try body()
        return store.statementCount - before
    }

    @Test func prefetchingLoadsEachRelationshipInAConstantNumberOfQueries() throws {
        let container = try seededContainer()
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.bucketList, \.tags, \.livingAccommodation]
        var touched = 0
        let count = try statements(container) {
            for trip in try context.fetch(descriptor) {
                touched += trip.bucketList.filter { !$0.title.isEmpty }.count
                touched += trip.tags.count
                touched += trip.livingAccommodation == nil ? 0 : 1
            }
        }
        #expect(touched == 12_000)
        // The trips, the items, the tag links and the tags, and the accommodations: five queries in all.
        #expect(count == 5)
    }

    /// Reading a relationship lazily loads it, in one query, for the model and for the next 99 models of its
    /// fetch that have not loaded it: walking 1,000 trips runs 10 queries per relationship, not 1,000.
    @Test func withoutPrefetchingRelationshipsLoadLazilyInBatchesOfTheFetch() throws {
        let container = try seededContainer()
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let first = try #require(trips.first)
        let count = statements(container) {
            #expect(first.bucketList.count == 10)
            #expect(first.bucketList.allSatisfy { $0.trip === first })
        }
        #expect(count == 1)
        var titles: [String] = []
        let all = statements(container) {
            for trip in trips { titles += trip.bucketList.map(\.title) }
        }
        // Trips 1-99 came with the first one's query; 9 queries load the other 900.
        #expect(all == 9)
        #expect(titles.count == 10_000)
        #expect(zip(trips, trips.map(\.bucketList)).allSatisfy { trip, items in items.allSatisfy { $0.trip === trip } })

        // A to-one relationship: the targets of 100 trips load in one query.
        var hotels: [String] = []
        let toOne = statements(container) {
            for trip in trips { hotels.append(trip.livingAccommodation?.name ?? "none") }
        }
        #expect(hotels == trips.map { "hotel" + $0.name.dropFirst("trip".count) })
        #expect(toOne == 10)
    }
}

extension PrefetchTests {
    /// More owners than one prefetch query serves: their related models are read 1,000 owners at a time, through
    /// an inverse foreign key and through a join table, and every owner gets exactly its own.
    @Test func prefetchingManyModelsReadsTheirRelationshipsAThousandOwnersAtATime() throws {
        let container = try seededContainer(trips: 2_500, items: 2, tags: 3)
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.bucketList, \.tags]
        var trips: [Trip] = []
        let count = try statements(container) { trips = try context.fetch(descriptor) }
        // The trips; three batches of items; three batches of tag links, and the tags once (the later batches find
        // them registered).
        #expect(count == 1 + 3 + 3 + 1)
        let reads = statements(container) {
            for trip in trips {
                let number = trip.name.dropFirst("trip".count)
                #expect(trip.bucketList.map(\.title).sorted() == ["item\(number)-0", "item\(number)-1"])
                #expect(trip.tags.map(\.label) == ["tag\(Int(number)! % 3)"])
            }
        }
        #expect(reads == 0)
    }

    /// Models of the fetch that were released are skipped, and so are those that already loaded the relationship:
    /// every kept trip still gets exactly its own items.
    @Test func batchesSkipReleasedAndLoadedModels() throws {
        let container = try seededContainer()
        let context = ModelContext(container)
        var trips: [Trip]? = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let kept = trips!.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        trips = nil
        _ = kept[5].bucketList.count
        var loaded = 0
        let count = statements(container) {
            for trip in kept {
                let titles = trip.bucketList.map(\.title)
                loaded += titles.count
                #expect(titles.allSatisfy { $0.hasPrefix("item\(trip.name.dropFirst("trip".count))-") })
            }
        }
        #expect(loaded == kept.count * 10)
        // 334 kept trips: each query serves up to 100 of them, skipping the released ones and the 100 loaded first.
        #expect(count <= 5)
    }
}

@Suite struct PartialFetchTests {
    @Test func propertiesToFetchReadsOnlyThoseColumnsAndLoadsTheRestOnFirstAccess() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let writer = ModelContext(container)
        writer.insert(Trip(name: "Rome", destination: "Italy", budget: 800))
        try writer.save()

        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Trip>()
        descriptor.propertiesToFetch = [\.name]
        let store = container.sqliteStores[0]
        let trip = try #require(try context.fetch(descriptor).first)
        #expect(store.statementLog.last == #"SELECT "_pk", "name" FROM "Trip" ORDER BY "_pk""#)
        #expect(trip.name == "Rome")
        let before = store.statementCount
        #expect(trip.budget == 800)
        #expect(trip.destination == "Italy")
        #expect(store.statementCount - before == 1)
        trip.budget = 900
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).first?.budget == 900)
    }
}
