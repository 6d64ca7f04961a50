import Foundation
import Testing

@testable import SwiftData

struct GeoPoint: Codable, Equatable {
    var latitude: Double
    var longitude: Double

    /// Computed from the stored fields: a predicate on these must not be mistaken for one on the fields.
    var swapped: GeoPoint { GeoPoint(latitude: longitude, longitude: latitude) }
    var doubledLatitude: Double { latitude * 2 }
}

struct Place: Codable, Equatable {
    var name: String
    var point: GeoPoint
    var note: String?
    var kind: Kind
    var extra: GeoPoint?
    var tags: [String]

    enum Kind: String, Codable, CaseIterable { case city, village }
}

struct AllOptional: Codable, Equatable {
    var a: Int?
    var b: String?
}

/// A structure without fields, nested in another: it has no column, as before dictionaries became JSON leaves.
struct EmptyTag: Codable, Equatable {}

struct Bookmark: Codable, Equatable {
    var page: Int
    var marker: EmptyTag
}

/// A structure with a dictionary among its fields, which is kept as one JSON column.
struct Recipe: Codable, Equatable {
    var title: String
    var amounts: [String: Int]
}

@Model
final class Cookbook {
    var recipe: Recipe
    init(recipe: Recipe) { self.recipe = recipe }
}

@Model
final class Visit {
    var place: Place
    var maybe: AllOptional?
    var shape: Shape

    init(place: Place, maybe: AllOptional?, shape: Shape) {
        self.place = place
        self.maybe = maybe
        self.shape = shape
    }
}

@Suite struct CompositeAttributeTests {
    /// A dictionary inside a composite structure keeps its entries: it is one JSON leaf, not a structure without
    /// fields.
    @Test func aDictionaryFieldKeepsItsEntries() throws {
        let directory = try TemporaryDirectory()
        let recipe = Recipe(title: "Bread", amounts: ["flour": 500, "water": 350])
        do {
            let context = ModelContext(try makeContainer(Cookbook.self, at: directory.store()))
            context.insert(Cookbook(recipe: recipe))
            try context.save()
        }
        let context = ModelContext(try makeContainer(Cookbook.self, at: directory.store()))
        #expect(try context.fetch(FetchDescriptor<Cookbook>()).first?.recipe == recipe)
    }

    /// The columns of a composite: a dictionary field is one JSON column, a nested structure without fields has
    /// none (stores saved before keep their columns).
    @Test func compositeColumnsOfDictionariesAndEmptyStructures() throws {
        #expect(try #require(CompositeCodec.make(for: Recipe.self)).leaves.map(\.name) == ["title", "amounts"])
        #expect(try #require(CompositeCodec.make(for: Bookmark.self)).leaves.map(\.name) == ["page"])
    }

    /// Fewer stored values than the structure has leaves (a tombstone kept before the structure gained a field):
    /// the missing leaves have no value, and decoding fails with an error rather than a trap.
    @Test func fewerValuesThanLeavesDecodeAsMissing() throws {
        let optional = try #require(CompositeCodec.make(for: AllOptional.self))
        #expect(try optional.decode(ArraySlice([SQLValue.integer(7)])) as? AllOptional == AllOptional(a: 7, b: nil))
        let point = try #require(CompositeCodec.make(for: GeoPoint.self))
        #expect(throws: DecodingError.self) { try point.decode(ArraySlice([SQLValue.real(1)])) }
    }

    @Test func codableStructsAreFlattenedIntoOneColumnPerLeaf() throws {
        let directory = try TemporaryDirectory()
        _ = try makeContainer(Visit.self, at: directory.store())
        #expect(
            try columnNames(directory.store(), table: "Visit") == [
                "_pk", "place.name", "place.point.latitude", "place.point.longitude", "place.note", "place.kind",
                "place.extra", "place.tags", "maybe", "maybe.a", "maybe.b", "shape",
            ]
        )
    }

    @Test(arguments: [
        AllOptional?.none, AllOptional(a: nil, b: nil), AllOptional(a: 7, b: "x"),
    ])
    func flattenedValuesRoundTrip(maybe: AllOptional?) throws {
        let directory = try TemporaryDirectory()
        let place = Place(
            name: "Oulu",
            point: GeoPoint(latitude: 65.01, longitude: 25.47),
            note: nil,
            kind: .city,
            extra: GeoPoint(latitude: 1, longitude: 2),
            tags: ["north", "sea"]
        )
        do {
            let context = ModelContext(try makeContainer(Visit.self, at: directory.store()))
            context.insert(Visit(place: place, maybe: maybe, shape: .rectangle(width: 3, height: 4)))
            try context.save()
        }
        let context = ModelContext(try makeContainer(Visit.self, at: directory.store()))
        let visit = try #require(try context.fetch(FetchDescriptor<Visit>()).first)
        #expect(visit.place == place)
        #expect(visit.maybe == maybe)
        #expect(visit.shape == .rectangle(width: 3, height: 4))
    }

    @Test func predicatesOnCompositeFieldsMatchSwift() throws {
        let container = try makeInMemoryContainer(Visit.self)
        let context = ModelContext(container)
        let rows: [(String, Double, AllOptional?)] = [
            ("Oulu", 65.0, AllOptional(a: 7, b: nil)), ("Turku", 60.4, nil),
            ("Inari", 68.9, AllOptional(a: nil, b: "x")),
        ]
        for (name, latitude, maybe) in rows {
            let place = Place(
                name: name, point: GeoPoint(latitude: latitude, longitude: 0), note: nil, kind: .city, extra: nil,
                tags: name == "Oulu" ? ["sea"] : []
            )
            context.insert(Visit(place: place, maybe: maybe, shape: .none))
        }
        try context.save()
        let city = Place.Kind.city
        let predicates: [Predicate<Visit>] = [
            #Predicate { $0.place.point.latitude > 62 },
            #Predicate { $0.place.name == "Turku" || $0.place.point.longitude != 0 },
            #Predicate { $0.maybe?.a == 7 },
            #Predicate { $0.maybe?.b == nil },
            #Predicate { $0.place.kind == city },
            #Predicate { $0.place.tags.isEmpty },
            #Predicate { $0.place.point.swapped.latitude == 0 },
            #Predicate { $0.place.point.swapped.longitude > 62 },
            #Predicate { $0.place.point.doubledLatitude > 125 },
        ]
        let everyone = try context.fetch(FetchDescriptor<Visit>())
        for predicate in predicates {
            let expected = try everyone.filter { try predicate.evaluate($0) }.map(\.place.name).sorted()
            let actual = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.place.name).sorted()
            #expect(actual == expected)
        }
    }
}
