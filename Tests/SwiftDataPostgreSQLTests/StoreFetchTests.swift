import Foundation
import SwiftData
import Testing

/// Counts, identifiers, pages and prefetched relationships of fetches, on each store.
@Suite struct StoreFetchTests {
    /// Twenty saved trips, `T00` to `T19`, with a budget of their number and a rating on odd numbers; each has a
    /// stop per number up to 3 and the tag of its number modulo 3.
    private func seededContainer(_ store: TestedStore) throws -> ModelContainer {
        let container = try store.makeContainer(PGTrip.self)
        let context = ModelContext(container)
        let tags = (0..<3).map { PGTag(label: "tag\($0)") }
        for number in 0..<20 {
            let trip = PGTrip(
                code: String(format: "T%02d", number), name: "trip \(number)", budget: Double(number),
                rating: number % 2 == 1 ? number : nil)
            context.insert(trip)
            trip.stops = (0..<number % 4).map { PGStop(title: "stop \(number).\($0)", order: $0) }
            trip.tags = [tags[number % 3]]
        }
        try context.save()
        return container
    }

    @Test(arguments: TestedStore.available)
    func fetchCountAndFetchIdentifiersAgreeWithTheFetch(store: TestedStore) throws {
        let context = ModelContext(try seededContainer(store))
        let descriptor = FetchDescriptor<PGTrip>(
            predicate: #Predicate { $0.budget >= 5 && $0.rating != nil },
            sortBy: [SortDescriptor(\.budget, order: .reverse)])
        let fetched = try context.fetch(descriptor)
        #expect(fetched.map(\.code) == ["T19", "T17", "T15", "T13", "T11", "T09", "T07", "T05"])
        #expect(try context.fetchCount(descriptor) == 8)
        #expect(try context.fetchIdentifiers(descriptor) == fetched.map(\.persistentModelID))
        #expect(try context.fetchCount(FetchDescriptor<PGTrip>()) == 20)
        #expect(try context.fetchCount(FetchDescriptor<PGStop>()) == 30)
        #expect(try context.fetchCount(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.budget > 100 })) == 0)
    }

    /// With unsaved inserts, changes and deletions, fetches (paged and sorted), counts and identifiers are what
    /// Swift says: the live trips (saved ones in identifier order, then the inserted ones) filtered, sorted, paged.
    @Test(arguments: TestedStore.available)
    func unsavedChangesTakePartInPagedFetches(store: TestedStore) throws {
        let context = ModelContext(try seededContainer(store))
        var live = try context.fetch(FetchDescriptor<PGTrip>())
        for trip in live where trip.budget.truncatingRemainder(dividingBy: 3) == 0 { trip.budget += 7.5 }
        for trip in live where trip.code.hasSuffix("4") { context.delete(trip) }
        live.removeAll(where: \.isDeleted)
        for number in 20..<26 {
            let trip = PGTrip(
                code: String(format: "T%02d", number), name: "new \(number)", budget: Double(number % 9),
                rating: number % 3 == 0 ? nil : number)
            context.insert(trip)
            live.append(trip)
        }
        let predicate = #Predicate<PGTrip> { $0.budget >= 4 }
        let sorts: [[SortDescriptor<PGTrip>]] = [
            [SortDescriptor(\.budget)], [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.name)], [],
        ]
        for sort in sorts {
            for (offset, limit) in [(0, 5), (3, 4), (10, nil), (0, nil), (30, 5)] as [(Int, Int?)] {
                var descriptor = FetchDescriptor<PGTrip>(predicate: predicate, sortBy: sort)
                descriptor.fetchOffset = offset
                descriptor.fetchLimit = limit
                var expected = try live.filter { try predicate.evaluate($0) }
                if !sort.isEmpty { expected.sort(using: sort) }
                let page = Array(expected.dropFirst(offset).prefix(limit ?? .max)).map(\.code)
                let label = "\(store) sort \(sort.count) offset \(offset) limit \(String(describing: limit))"
                #expect(try context.fetch(descriptor).map(\.code) == page, "\(label)")
                #expect(try context.fetchCount(descriptor) == page.count, "\(label)")
                #expect(try context.fetchIdentifiers(descriptor).count == page.count, "\(label)")
            }
        }
    }

    /// `nil` sorts first in ascending order and last in descending order, as `sorted(using:)` sorts.
    @Test(arguments: TestedStore.available)
    func optionalValuesSortAsSwiftSortsThem(store: TestedStore) throws {
        let context = ModelContext(try seededContainer(store))
        let all = try context.fetch(FetchDescriptor<PGTrip>())
        for order in [SortOrder.forward, .reverse] {
            let sort = [SortDescriptor(\PGTrip.rating, order: order), SortDescriptor(\.code)]
            let fetched = try context.fetch(FetchDescriptor<PGTrip>(sortBy: sort)).map(\.code)
            #expect(fetched == all.sorted(using: sort).map(\.code))
            let unrated = (0..<10).map { String(format: "T%02d", $0 * 2) }
            #expect(Array(order == .forward ? fetched.prefix(10) : fetched.suffix(10)) == unrated)
        }
    }

    @Test(arguments: TestedStore.available)
    func fetchLimitAndFetchOffsetPageASortedFetch(store: TestedStore) throws {
        let context = ModelContext(try seededContainer(store))
        let sort = [SortDescriptor(\PGTrip.budget, order: .reverse)]
        let all = try context.fetch(FetchDescriptor<PGTrip>(sortBy: sort)).map(\.code)
        #expect(all.count == 20)
        var pages: [String] = []
        for offset in stride(from: 0, to: 24, by: 6) {
            var page = FetchDescriptor<PGTrip>(sortBy: sort)
            page.fetchLimit = 6
            page.fetchOffset = offset
            let codes = try context.fetch(page).map(\.code)
            #expect(codes.count == min(6, 20 - offset))
            #expect(try context.fetchIdentifiers(page).count == codes.count)
            pages += codes
        }
        #expect(pages == all)

        var filtered = FetchDescriptor<PGTrip>(predicate: #Predicate { $0.rating == nil }, sortBy: sort)
        filtered.fetchOffset = 2
        filtered.fetchLimit = 3
        #expect(try context.fetch(filtered).map(\.code) == ["T14", "T12", "T10"])
        filtered.fetchOffset = 30
        #expect(try context.fetch(filtered).isEmpty)
    }

    @Test(arguments: TestedStore.available)
    func prefetchedRelationshipsHoldTheirModels(store: TestedStore) throws {
        let context = ModelContext(try seededContainer(store))
        var trips = FetchDescriptor<PGTrip>(
            predicate: #Predicate { $0.budget < 8 }, sortBy: [SortDescriptor(\.code)])
        trips.relationshipKeyPathsForPrefetching = [\.stops, \.tags]
        let fetched = try context.fetch(trips)
        #expect(fetched.map(\.code) == ["T00", "T01", "T02", "T03", "T04", "T05", "T06", "T07"])
        for (number, trip) in fetched.enumerated() {
            #expect(trip.stops.map(\.title).sorted() == (0..<number % 4).map { "stop \(number).\($0)" })
            #expect(trip.stops.allSatisfy { $0.trip === trip })
            #expect(trip.tags.map(\.label) == ["tag\(number % 3)"])
        }
        // A page of a prefetching fetch holds the relationships of its own models.
        trips.fetchOffset = 5
        trips.fetchLimit = 2
        let page = try ModelContext(context.container).fetch(trips)
        #expect(page.map(\.code) == ["T05", "T06"])
        #expect(page.map { $0.stops.count } == [1, 2])
        #expect(page.map { $0.tags.map(\.label) } == [["tag2"], ["tag0"]])

        var stops = FetchDescriptor<PGStop>(predicate: #Predicate { $0.order == 2 })
        stops.relationshipKeyPathsForPrefetching = [\.trip]
        let fetchedStops = try context.fetch(stops)
        #expect(fetchedStops.count == 5)
        for stop in fetchedStops {
            // "stop 11.2" belongs to T11.
            let number = try #require(Int(stop.title.dropFirst(5).prefix { $0 != "." }))
            #expect(stop.trip?.code == String(format: "T%02d", number))
            #expect(stop.trip?.stops.contains { $0 === stop } == true)
        }
    }

    /// A predicate some store evaluates in memory (PostgreSQL: `localizedStandardContains`) still selects what
    /// Swift selects, counts it, and limits it.
    @Test(arguments: TestedStore.available)
    func aLocalizedPredicateSelectsCountsAndLimitsAsSwiftDoes(store: TestedStore) throws {
        let context = ModelContext(try store.makeContainer(PGTrip.self))
        context.insert(PGTrip(code: "a", name: "Caf\u{E9} trip"))
        context.insert(PGTrip(code: "b", name: "Office"))
        context.insert(PGTrip(code: "c", name: "cafe corner"))
        try context.save()
        var descriptor = FetchDescriptor<PGTrip>(
            predicate: #Predicate { $0.name.localizedStandardContains("cafe") }, sortBy: [SortDescriptor(\.code)])
        #expect(try context.fetch(descriptor).map(\.code) == ["a", "c"])
        #expect(try context.fetchCount(descriptor) == 2)
        descriptor.fetchLimit = 1
        descriptor.fetchOffset = 1
        #expect(try context.fetch(descriptor).map(\.code) == ["c"])
    }

    @Test(arguments: TestedStore.available)
    func anIntegerDivisionByZeroMatchesNoRow(store: TestedStore) throws {
        let context = ModelContext(try store.makeContainer(PGSample.self))
        context.insert(PGSample(word: "a", note: nil, number: 4, amount: 0, flag: true, when: .distantPast))
        try context.save()
        let zero = 0
        let two = 2
        let reader = ModelContext(context.container)
        #expect(try reader.fetchCount(FetchDescriptor<PGSample>(predicate: #Predicate { $0.number / zero > 1 })) == 0)
        #expect(try reader.fetchCount(FetchDescriptor<PGSample>(predicate: #Predicate { $0.number / two == 2 })) == 1)
    }
}
