import Foundation
import Testing

@testable import SwiftData

/// A composite attribute: stored as one column per field.
struct Spot: Codable, Equatable {
    var city: String
    var latitude: Double
}

/// A model whose one uniqueness constraint is a composite attribute: its inserts are saved with one
/// `INSERT … ON CONFLICT` statement on the attribute's columns.
@Model
final class Venue {
    @Attribute(.unique) var spot: Spot
    var label: String

    init(spot: Spot, label: String) {
        self.spot = spot
        self.label = label
    }
}

/// A model with a composite attribute in one of two uniqueness constraints: the store looks up the row that
/// holds an inserted model's values before writing it.
@Model
final class Booth {
    #Unique<Booth>([\.spot], [\.code])
    var spot: Spot
    var code: String
    var label: String

    init(spot: Spot, code: String, label: String) {
        self.spot = spot
        self.code = code
        self.label = label
    }
}

/// A uniqueness constraint on a composite attribute compares every field of it: models whose values are equal in
/// every field are one row (Apple's upsert), and models differing in one field are two.
@Suite struct UniqueCompositeAttributeTests {
    @Test func equalCompositeValuesSavedTwiceAreOneRow() throws {
        let container = try makeInMemoryContainer(Venue.self)
        let first = ModelContext(container)
        let original = Venue(spot: Spot(city: "Oslo", latitude: 59.9), label: "one")
        first.insert(original)
        try first.save()
        let second = ModelContext(container)
        let again = Venue(spot: Spot(city: "Oslo", latitude: 59.9), label: "two")
        second.insert(again)
        try second.save()
        #expect(again.persistentModelID == original.persistentModelID)
        let venues = try ModelContext(container).fetch(FetchDescriptor<Venue>())
        #expect(venues.map(\.label) == ["two"])
        #expect(
            container.sqliteStores[0].statementLog.contains {
                $0.contains(#"ON CONFLICT("spot.city", "spot.latitude")"#)
            }
        )
    }

    @Test func compositeValuesDifferingInOneFieldAreTwoRows() throws {
        let container = try makeInMemoryContainer(Venue.self)
        let first = ModelContext(container)
        first.insert(Venue(spot: Spot(city: "Oslo", latitude: 59.9), label: "one"))
        try first.save()
        let second = ModelContext(container)
        second.insert(Venue(spot: Spot(city: "Oslo", latitude: 60.0), label: "latitude"))
        second.insert(Venue(spot: Spot(city: "Bergen", latitude: 59.9), label: "city"))
        try second.save()
        let venues = try ModelContext(container).fetch(FetchDescriptor<Venue>(sortBy: [SortDescriptor(\.label)]))
        #expect(venues.map(\.label) == ["city", "latitude", "one"])
    }

    @Test func aCompositeInOneOfSeveralConstraintsUpserts() throws {
        let container = try makeInMemoryContainer(Booth.self)
        let first = ModelContext(container)
        first.insert(Booth(spot: Spot(city: "Oslo", latitude: 59.9), code: "a", label: "one"))
        first.insert(Booth(spot: Spot(city: "Oslo", latitude: 60.0), code: "b", label: "two"))
        // Equal to the first in the same save: one row.
        first.insert(Booth(spot: Spot(city: "Oslo", latitude: 59.9), code: "c", label: "three"))
        try first.save()
        let second = ModelContext(container)
        second.insert(Booth(spot: Spot(city: "Oslo", latitude: 60.0), code: "d", label: "four"))
        try second.save()
        let booths = try ModelContext(container).fetch(FetchDescriptor<Booth>(sortBy: [SortDescriptor(\.label)]))
        #expect(booths.map(\.label) == ["four", "three"])
        #expect(booths.map(\.code) == ["d", "c"])
    }

    @Test func aReopenedStoreKeepsTheConstraint() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Venue.self, Booth.self, at: directory.store()))
            context.insert(Venue(spot: Spot(city: "Oslo", latitude: 59.9), label: "one"))
            context.insert(Booth(spot: Spot(city: "Oslo", latitude: 59.9), code: "a", label: "one"))
            try context.save()
        }
        let container = try makeContainer(Venue.self, Booth.self, at: directory.store())
        let context = ModelContext(container)
        context.insert(Venue(spot: Spot(city: "Oslo", latitude: 59.9), label: "two"))
        context.insert(Venue(spot: Spot(city: "Oslo", latitude: 60.0), label: "three"))
        context.insert(Booth(spot: Spot(city: "Oslo", latitude: 59.9), code: "b", label: "two"))
        context.insert(Booth(spot: Spot(city: "Bergen", latitude: 59.9), code: "c", label: "three"))
        try context.save()
        let reader = ModelContext(container)
        let venues = try reader.fetch(FetchDescriptor<Venue>(sortBy: [SortDescriptor(\.label)]))
        #expect(venues.map(\.label) == ["three", "two"])
        let booths = try reader.fetch(FetchDescriptor<Booth>(sortBy: [SortDescriptor(\.label)]))
        #expect(booths.map(\.label) == ["three", "two"])
    }
}
