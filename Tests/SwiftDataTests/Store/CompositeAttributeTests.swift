import Foundation
import SwiftData
import Testing

struct GeoPoint: Codable, Equatable {
    var latitude: Double
    var longitude: Double
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

    @Test func predicatesOnCompositeAttributesRunInMemoryWithSwiftSemantics() throws {
        let context = ModelContext(try makeInMemoryContainer(Visit.self))
        for (name, latitude) in [("Oulu", 65.0), ("Turku", 60.4)] {
            let place = Place(
                name: name, point: GeoPoint(latitude: latitude, longitude: 0), note: nil, kind: .city, extra: nil,
                tags: [])
            context.insert(Visit(place: place, maybe: nil, shape: .none))
        }
        try context.save()
        let north = try context.fetch(FetchDescriptor<Visit>(predicate: #Predicate { $0.place.point.latitude > 62 }))
        #expect(north.map(\.place.name) == ["Oulu"])
    }
}
