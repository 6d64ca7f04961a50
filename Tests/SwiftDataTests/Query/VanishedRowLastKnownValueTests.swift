import Foundation
import Testing

@testable import SwiftData

/// How a depot keeps its goods: not `CaseIterable`, and no case has an empty raw value, so it has no placeholder.
enum DepotClimate: String, Codable {
    case dry, cold
}

/// A colour that is not `Codable`, stored through `TintTransformer`: a transformed value has no placeholder.
final class Tint {
    let hue: UInt8
    init(hue: UInt8) { self.hue = hue }
}

final class TintTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? Tint).map { Data([$0.hue]) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 1 else { return nil }
        return Tint(hue: data[0])
    }
}

@Model
final class Depot {
    var name: String
    var climate: DepotClimate
    @Relationship(deleteRule: .cascade, inverse: \Carton.depot) var cartons: [Carton] = []

    init(name: String, climate: DepotClimate) {
        self.name = name
        self.climate = climate
    }
}

/// A model whose attributes and relationship a vanished row cannot stand in for: an enumeration and a transformed
/// value without placeholders, and a non-optional to-one relationship.
@Model
final class Carton {
    var label: String
    var climate: DepotClimate
    @Attribute(.transformable(by: TintTransformer.self)) var tint: Tint
    var depot: Depot

    init(label: String, climate: DepotClimate, tint: Tint, depot: Depot) {
        self.label = label
        self.climate = climate
        self.tint = tint
        self.depot = depot
    }
}

@Model
final class Traveler {
    var name: String
    var visa: Visa?

    init(name: String) {
        self.name = name
    }
}

/// A non-optional to-one whose link is stored in the other table: "Traveler.visa" sorts before "Visa.holder", so
/// the traveler's row holds the visa's key.
@Model
final class Visa {
    var country: String
    @Relationship(inverse: \Traveler.visa) var holder: Traveler

    init(country: String, holder: Traveler) {
        self.country = country
        self.holder = holder
    }
}

/// A batched fetch whose rows vanish before their batch is read, of models with properties that have no
/// placeholder: they read the values read with the identifiers, and never stop the program.
@Suite struct VanishedRowLastKnownValueTests {
    let byLabel = FetchDescriptor<GaugeReading>(sortBy: [SortDescriptor(\.label)])

    /// Three saved gauge readings, g0 to g2 (keys 1 to 3), each with unit `.imperial`.
    func savedReadings(in directory: TemporaryDirectory) throws -> ModelContainer {
        let container = try makeContainer(GaugeReading.self, at: directory.store())
        let writer = ModelContext(container)
        for index in 0..<3 {
            let url = URL(string: "https://example.com/\(index)")!
            writer.insert(GaugeReading(label: "g\(index)", reading: 1, note: nil, taken: .now, site: url))
        }
        try writer.save()
        return container
    }

    /// A depot "north" (`.cold`) with cartons c0 to c3 (keys 1 to 4), of hues 10 to 13, `.dry`.
    func savedCartons(in directory: TemporaryDirectory) throws -> ModelContainer {
        let container = try makeContainer(Depot.self, Carton.self, at: directory.store())
        let writer = ModelContext(container)
        let depot = Depot(name: "north", climate: .cold)
        writer.insert(depot)
        for index in 0..<4 {
            writer.insert(Carton(label: "c\(index)", climate: .dry, tint: Tint(hue: UInt8(10 + index)), depot: depot))
        }
        try writer.save()
        return container
    }

    let cartonsByLabel = FetchDescriptor<Carton>(sortBy: [SortDescriptor(\.label)])

    @Test func vanishedRowReadsTheLastKnownValueOfAnEnumerationWithoutPlaceholder() throws {
        let directory = try TemporaryDirectory()
        let container = try savedReadings(in: directory)
        let batched = try ModelContext(container).fetch(byLabel, batchSize: 2)

        try runSQLite(directory.store(), #"DELETE FROM "GaugeReading" WHERE "_pk" = 2"#)

        #expect(batched[1].isDeleted)
        #expect(batched[1].unit == .imperial)
        // Attributes with a placeholder still read it.
        #expect(batched[1].kind == .wind)
        #expect(batched[1].label == "")
        #expect(batched[2].unit == .imperial)
    }

    @Test func vanishedRowReadsItsLastKnownTransformedValueAndEnumeration() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCartons(in: directory)
        let batched = try ModelContext(container).fetch(cartonsByLabel, batchSize: 2)

        try runSQLite(directory.store(), #"DELETE FROM "Carton" WHERE "_pk" = 3"#)

        #expect(batched[2].isDeleted)
        #expect(batched[2].tint.hue == 12)
        #expect(batched[2].climate == .dry)
        #expect(batched[2].label == "")
        #expect(batched[3].tint.hue == 13)
    }

    @Test func vanishedRowReadsTheTargetOfItsNonOptionalToOne() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCartons(in: directory)
        let batched = try ModelContext(container).fetch(cartonsByLabel, batchSize: 2)

        try runSQLite(directory.store(), #"DELETE FROM "Carton" WHERE "_pk" = 1"#)

        #expect(batched[0].isDeleted)
        #expect(batched[0].depot.name == "north")
        #expect(batched[0].depot.climate == .cold)
        #expect(!batched[0].depot.isDeleted)
        #expect(batched[1].depot.name == "north")
    }

    @Test func vanishedRowWhoseTargetVanishedTooReadsItsTargetsLastKnownValues() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCartons(in: directory)
        let batched = try ModelContext(container).fetch(cartonsByLabel, batchSize: 2)

        // The depot's deletion cascades to every carton.
        let writer = ModelContext(container)
        for depot in try writer.fetch(FetchDescriptor<Depot>()) { writer.delete(depot) }
        try writer.save()

        #expect(batched.map(\.isDeleted) == [true, true, true, true])
        #expect(batched.map(\.tint.hue) == [10, 11, 12, 13])
        let depot = batched[3].depot
        #expect(depot.isDeleted)
        #expect(depot.modelContext == nil)
        #expect(depot.climate == .cold)
        #expect(depot.name == "")
        #expect(depot.cartons.isEmpty)
    }

    @Test func vanishedRowReadsATargetThatHoldsTheLink() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(Traveler.self, Visa.self, at: directory.store())
        let writer = ModelContext(container)
        for (name, country) in [("Aino", "FI"), ("Bea", "SE")] {
            writer.insert(Visa(country: country, holder: Traveler(name: name)))
        }
        try writer.save()
        let batched = try ModelContext(container).fetch(
            FetchDescriptor<Visa>(sortBy: [SortDescriptor(\.country)]), batchSize: 1)

        try runSQLite(directory.store(), #"DELETE FROM "Visa""#)

        #expect(batched.map(\.isDeleted) == [true, true])
        #expect(batched.map(\.holder.name) == ["Aino", "Bea"])
    }

    @Test func cartonsOfAStoreInMemoryAreReadInOneSnapshot() throws {
        let container = try makeInMemoryContainer(Depot.self, Carton.self)
        let writer = ModelContext(container)
        let depot = Depot(name: "south", climate: .dry)
        writer.insert(depot)
        for index in 0..<3 {
            writer.insert(Carton(label: "c\(index)", climate: .cold, tint: Tint(hue: UInt8(index)), depot: depot))
        }
        try writer.save()
        let store = container.sqliteStores[0]
        let before = store.statementLog.count
        let batched = try ModelContext(container).fetch(cartonsByLabel, batchSize: 2)
        let statements = store.statementLog.suffix(store.statementLog.count - before)
        #expect(statements.first == "BEGIN DEFERRED")
        #expect(statements.last == "COMMIT")

        writer.delete(depot)
        try writer.save()

        #expect(batched.map(\.isDeleted) == [true, true, true])
        #expect(batched.map(\.tint.hue) == [0, 1, 2])
        #expect(batched[0].depot.isDeleted)
        #expect(batched[0].depot.climate == .dry)
    }

    @Test func cartonsAndTheirDepotAreReadInOneReadTransaction() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCartons(in: directory)
        let store = container.sqliteStores[0]
        let before = store.statementLog.count
        _ = try ModelContext(container).fetch(cartonsByLabel, batchSize: 2)
        #expect(
            Array(store.statementLog.suffix(store.statementLog.count - before)) == [
                "BEGIN DEFERRED",
                #"SELECT "_pk", "climate", "tint", "depot" FROM "Carton" ORDER BY "label" ASC, "_pk""#,
                #"SELECT "_pk", "climate" FROM "Depot" WHERE ("Depot"."_pk" BETWEEN ?1 AND ?2)"#,
                "COMMIT",
            ])
    }

    @Test func heldModelOfAVanishedRowFallsBackOnItsTargetsLastKnownValues() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCartons(in: directory)
        let reader = ModelContext(container)
        let held = try reader.fetch(FetchDescriptor<Carton>(predicate: #Predicate { $0.label == "c1" }))
        let batched = try reader.fetch(cartonsByLabel, batchSize: 2)

        let writer = ModelContext(container)
        for depot in try writer.fetch(FetchDescriptor<Depot>()) { writer.delete(depot) }
        try writer.save()

        #expect(batched[1] === held.first)
        #expect(batched[1].label == "c1")
        #expect(batched[1].depot.climate == .cold)
        #expect(batched[1].depot.isDeleted)
    }

    @Test func vanishedRowOfAFetchSortedInMemoryReadsItsTargetsLastKnownValues() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCartons(in: directory)
        // A localized sort runs in memory: the fetch reads every model in full to find the identifiers.
        let byLocalizedLabel = FetchDescriptor<Carton>(sortBy: [SortDescriptor(\.label, comparator: .localizedStandard)]
        )
        let batched = try ModelContext(container).fetch(byLocalizedLabel, batchSize: 2)

        let writer = ModelContext(container)
        for depot in try writer.fetch(FetchDescriptor<Depot>()) { writer.delete(depot) }
        try writer.save()

        #expect(batched.map(\.isDeleted) == [true, true, true, true])
        #expect(batched.map(\.tint.hue) == [10, 11, 12, 13])
        #expect(batched[2].climate == .dry)
        #expect(batched[2].depot.isDeleted)
        #expect(batched[2].depot.climate == .cold)
    }

    @Test func vanishedRowOfASubclassIsAModelOfItsClass() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(Matka.self, Lomamatka.self, at: directory.store())
        let writer = ModelContext(container)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        writer.insert(Matka(kohde: "Turku", alkupvm: start, loppupvm: start))
        writer.insert(Lomamatka(kohde: "Rooma", alkupvm: start, loppupvm: start, syy: .kulttuuri, budjetti: 900))
        try writer.save()
        let batched = try ModelContext(container).fetch(
            FetchDescriptor<Matka>(sortBy: [SortDescriptor(\.kohde)]), batchSize: 1)

        try runSQLite(directory.store(), #"DELETE FROM "Matka" WHERE "budjetti" = 900"#)

        let holiday = try #require(batched[0] as? Lomamatka)
        #expect(holiday.isDeleted)
        #expect(holiday.syy == .kulttuuri)
        #expect(holiday.budjetti == 0)
        #expect(batched[1].kohde == "Turku")
    }

    @Test func unreadableBatchKeepsTheLastKnownValuesOfAttributesWithoutPlaceholder() throws {
        let directory = try TemporaryDirectory()
        let container = try savedReadings(in: directory)
        let batched = try ModelContext(container).fetch(byLabel, batchSize: 2)

        try runSQLite(directory.store(), #"DROP TABLE "GaugeReading""#)

        #expect(batched[0].unit == .imperial)
        #expect(batched[0].label == "")
        #expect(batched[2].unit == .imperial)
    }

    @Test func unreadableBatchKeepsTheTargetOfANonOptionalToOne() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCartons(in: directory)
        let batched = try ModelContext(container).fetch(cartonsByLabel, batchSize: 2)

        try runSQLite(directory.store(), #"DROP TABLE "Carton""#)

        #expect(batched[1].tint.hue == 11)
        #expect(batched[1].depot.name == "north")
    }

    @Test func vanishedRowOfAFetchWithPendingChangesReadsItsLastKnownValues() throws {
        let directory = try TemporaryDirectory()
        let container = try savedReadings(in: directory)
        let reader = ModelContext(container)
        // An unsaved model makes the fetch find its identifiers in memory.
        reader.insert(GaugeReading(label: "g9", reading: 1, note: nil, taken: .now, site: URL(string: "about:blank")!))
        let batched = try reader.fetch(byLabel, batchSize: 2)

        try runSQLite(directory.store(), #"DELETE FROM "GaugeReading" WHERE "_pk" = 3"#)

        #expect(batched.count == 4)
        #expect(batched[2].isDeleted)
        #expect(batched[2].unit == .imperial)
        #expect(batched[3].label == "g9")
    }

    @Test func storedValueThatCannotBeReadStopsTheFetchInsteadOfAnAccess() throws {
        let directory = try TemporaryDirectory()
        let container = try savedReadings(in: directory)
        try runSQLite(directory.store(), #"UPDATE "GaugeReading" SET "unit" = 'nautical' WHERE "_pk" = 2"#)

        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            _ = try ModelContext(container).fetch(byLabel, batchSize: 2)
        }
    }

    @Test func identifiersAloneAreReadWhenEveryAttributeHasAPlaceholder() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(Trip.self, at: directory.store())
        let writer = ModelContext(container)
        writer.insert(Trip(name: "t0", destination: "d0"))
        try writer.save()
        _ = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 2)
        let store = container.sqliteStores[0]
        #expect(
            store.statementLog.last { $0.hasPrefix("SELECT") }
                == #"SELECT "_pk" FROM "Trip" ORDER BY "name" ASC, "_pk""#)
    }

    @Test func identifierReadAlsoReadsTheColumnsWithoutPlaceholder() throws {
        let directory = try TemporaryDirectory()
        let container = try savedReadings(in: directory)
        _ = try ModelContext(container).fetch(byLabel, batchSize: 2)
        let store = container.sqliteStores[0]
        #expect(
            store.statementLog.last { $0.hasPrefix("SELECT") }
                == #"SELECT "_pk", "unit" FROM "GaugeReading" ORDER BY "label" ASC, "_pk""#)
    }
}
