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

    /// Before b598b86 the unique index on a composite attribute named the property, which is no column: SQLite read
    /// the name as a string, so every row had the same index value and every insert after the first was refused.
    /// Such a store recorded its constraints by property name; opening it with the current code migrates it, and the
    /// rebuilt table gets an index on the attribute's columns.
    @Test func aStoreWithTheOldIndexIsMigratedAndItsIndexRebuilt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Venue.self, at: url))
            context.insert(Venue(spot: Spot(city: "Oslo", latitude: 59.9), label: "one"))
            try context.save()
        }

        // Make the file what the code before b598b86 wrote: the broken index, and the schema recorded with the
        // property's name instead of its columns', both in the text and in the model's hash.
        do {
            let file = try StoreFile(url: url, writable: true)
            let metadata = quotedIdentifier(StoreFile.metadataTable)
            let schemaText = try #require(file.metadata["schema"])
            #expect(schemaText.contains("unique(spot.city,spot.latitude)"))
            var model = file.schema
            let venue = try #require(model.entities.firstIndex { $0.name == "Venue" })
            #expect(model.entities[venue].uniquenessConstraints == [["spot"]])
            let entity = model.entities[venue]
            // The rebuilt hash is the recorded one when it names the columns, as the current code does.
            let byColumns = { (properties: [String]) in
                properties.flatMap { property in entity.columns.filter { $0.property == property }.map(\.name) }
            }
            #expect(recordedHash(of: entity, naming: byColumns) == entity.hash)
            model.entities[venue].hash = recordedHash(of: entity) { $0 }
            #expect(model.entities[venue].hash != entity.hash)
            try file.inTransaction {
                try file.execute(#"DROP INDEX "Venue_spot_unique""#)
                try file.execute(#"CREATE UNIQUE INDEX "Venue_spot_unique" ON "Venue" ("spot")"#)
                let oldText = schemaText.replacingOccurrences(
                    of: "unique(spot.city,spot.latitude)", with: "unique(spot)")
                try file.execute("UPDATE \(metadata) SET value = ?1 WHERE key = 'schema'", [.text(oldText)])
                try file.execute("UPDATE \(metadata) SET value = ?1 WHERE key = 'model'", [.text(try model.encoded())])
            }
            // The doctored file has the defect: a second row with a different composite value is refused.
            let error = #expect(throws: SQLiteError.self) {
                try file.execute(
                    #"INSERT INTO "Venue" ("spot.city", "spot.latitude", "label") VALUES ('Bergen', 60.4, 'raw')"#
                )
            }
            #expect(error?.isConstraintViolation == true)
            #expect(try file.rows(#"SELECT count(*) FROM "Venue""#) == [[.integer(1)]])
        }

        let container = try makeContainer(Venue.self, at: url)
        do {
            let file = try StoreFile(url: url, writable: false)
            #expect(
                try file.rows("SELECT sql FROM sqlite_schema WHERE name = 'Venue_spot_unique'")
                    == [[.text(#"CREATE UNIQUE INDEX "Venue_spot_unique" ON "Venue" ("spot.city", "spot.latitude")"#)]]
            )
            #expect(file.metadata["schema"]?.contains("unique(spot.city,spot.latitude)") == true)
        }
        let migrated = try ModelContext(container).fetch(FetchDescriptor<Venue>())
        #expect(migrated.map(\.label) == ["one"])
        #expect(migrated.map(\.spot) == [Spot(city: "Oslo", latitude: 59.9)])
        let original = try #require(migrated.first)

        let second = ModelContext(container)
        second.insert(Venue(spot: Spot(city: "Bergen", latitude: 60.4), label: "two"))
        try second.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Venue>()) == 2)

        let third = ModelContext(container)
        let again = Venue(spot: Spot(city: "Oslo", latitude: 59.9), label: "three")
        third.insert(again)
        try third.save()
        #expect(again.persistentModelID == original.persistentModelID)
        let venues = try ModelContext(container).fetch(FetchDescriptor<Venue>(sortBy: [SortDescriptor(\.label)]))
        #expect(venues.map(\.label) == ["three", "two"])
    }
}

/// The hash `StoredSchema` records for an entity (whose properties have no `hashModifier`), rebuilt from the rest
/// of what it records, with `names` giving the names each uniqueness constraint and index is recorded by.
private func recordedHash(of entity: StoredSchema.Entity, naming names: ([String]) -> [String]) -> String {
    let shape =
        entity.columns.map { "\($0.name) \($0.sqlType) \($0.isNullable)" }
        + entity.uniquenessConstraints.map { "u\(names($0))" } + entity.indices.map { "i\(names($0))" }
    return StoredSchema.hash(shape.joined(separator: ";"))
}

/// A composite attribute of one field: its one column is named after the field, not the attribute.
struct Mailbox: Codable, Equatable {
    var address: String
}

@Model
final class Subscriber {
    #Unique<Subscriber>([\.mailbox])
    var mailbox: Mailbox

    init(mailbox: Mailbox) {
        self.mailbox = mailbox
    }
}

extension UniqueCompositeAttributeTests {
    /// Stores record a constraint on a composite attribute by its columns, so that stores made before constraints
    /// covered the columns (which recorded the property) migrate and make their index anew; an attribute of one
    /// field has one column too, under another name than the property's.
    @Test func aConstraintOnAOneFieldCompositeIsRecordedByItsColumn() throws {
        let entity = try #require(Schema([Subscriber.self]).modelEntitiesByName["Subscriber"])
        let layout = try SQLTableLayout(entity: entity, hierarchy: [], dialect: SQLiteDialect())
        #expect(layout.recordedNames(of: ["mailbox"], in: entity) == ["mailbox.address"])
        let container = try makeInMemoryContainer(Subscriber.self)
        let context = ModelContext(container)
        context.insert(Subscriber(mailbox: Mailbox(address: "a@example.com")))
        context.insert(Subscriber(mailbox: Mailbox(address: "b@example.com")))
        try context.save()
        context.insert(Subscriber(mailbox: Mailbox(address: "a@example.com")))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Subscriber>()) == 2)
    }
}
