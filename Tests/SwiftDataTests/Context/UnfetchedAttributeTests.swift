import Foundation
import Testing

@testable import SwiftData

enum GaugeKind: String, Codable, CaseIterable {
    case wind, rain
}

enum GaugeUnit: String, Codable {
    case metric, imperial
}

@Model
final class GaugeReading {
    var label: String
    var reading: Double = 42
    var note: String?
    var taken: Date
    var site: URL
    var kind: GaugeKind
    var unit: GaugeUnit

    init(label: String, reading: Double, note: String?, taken: Date, site: URL) {
        self.label = label
        self.reading = reading
        self.note = note
        self.taken = taken
        self.site = site
        self.kind = .rain
        self.unit = .imperial
    }
}

/// A crest SwiftData can make no value of: a class whose decoding refuses an empty motto, so it neither decodes
/// from empty fields or columns nor is a small value type.
final class PennantCrest: Codable {
    let motto: String

    init(motto: String) { self.motto = motto }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let motto = try container.decode(String.self, forKey: .motto)
        guard !motto.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .motto, in: container, debugDescription: "no motto")
        }
        self.motto = motto
    }
}

/// A pennant with an attribute of each kind: with a placeholder (`count`, `note`), and with no stand-in at all
/// (`crest`, `tint`).
@Model
final class Pennant {
    var name: String
    var count: Int
    var note: String?
    var crest: PennantCrest
    @Attribute(.transformable(by: TintTransformer.self)) var tint: Tint

    init(name: String, count: Int, crest: PennantCrest, tint: Tint) {
        self.name = name
        self.count = count
        self.crest = crest
        self.tint = tint
    }
}

/// Attributes a fetch with `propertiesToFetch` left out, read when their context or their row is gone.
@Suite struct UnfetchedAttributeTests {
    let site = URL(string: "https://example.com/gauge")!
    let taken = Date(timeIntervalSinceReferenceDate: 1_000)

    func savedReading(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        context.insert(GaugeReading(label: "north", reading: 7, note: "windy", taken: taken, site: site))
        try context.save()
    }

    func partialFetch(_ context: ModelContext) throws -> GaugeReading {
        var descriptor = FetchDescriptor<GaugeReading>()
        descriptor.propertiesToFetch = [\.label]
        return try #require(try context.fetch(descriptor).first)
    }

    /// True when a model's attribute was left not fetched.
    func isUnfetched(_ model: some PersistentModel, _ name: String) throws -> Bool {
        let property = try #require(model.storage.entity.property(named: name))
        return model.storage.values[property.index] is ModelStorage.NotFetched
    }

    /// A container holding one pennant, in memory or on disk.
    func savedPennant(onDisk: Bool, in directory: TemporaryDirectory) throws -> ModelContainer {
        let container =
            onDisk ? try makeContainer(Pennant.self, at: directory.store()) : try makeInMemoryContainer(Pennant.self)
        let context = ModelContext(container)
        context.insert(Pennant(name: "north", count: 7, crest: PennantCrest(motto: "onward"), tint: Tint(hue: 40)))
        try context.save()
        return container
    }

    /// An attribute of a type SwiftData can make no value of is fetched even by a partial fetch that does not name
    /// it, so it reads its value once its row, and every other row of its entity, is gone; an attribute with a
    /// placeholder is still left out.
    @Test(arguments: [false, true])
    func attributeWithoutStandInIsFetchedAndReadsItsValueOnceEveryRowIsGone(onDisk: Bool) throws {
        let entity = Schema.Entity.of(Pennant.self)
        #expect(try #require(entity.property(named: "crest")).standInValue == nil)
        #expect(try #require(entity.property(named: "tint")).standInValue == nil)
        let directory = try TemporaryDirectory()
        let container = try savedPennant(onDisk: onDisk, in: directory)
        var descriptor = FetchDescriptor<Pennant>()
        descriptor.propertiesToFetch = [\.name]
        let pennant = try #require(try ModelContext(container).fetch(descriptor).first)
        #expect(try !isUnfetched(pennant, "crest"))
        #expect(try !isUnfetched(pennant, "tint"))
        #expect(try isUnfetched(pennant, "count"))
        #expect(try isUnfetched(pennant, "note"))

        let other = ModelContext(container)
        for model in try other.fetch(FetchDescriptor<Pennant>()) { other.delete(model) }
        try other.save()

        // Had `crest` been left out, no row would hold a value of it, and reading it would stop the program.
        #expect(pennant.crest.motto == "onward")
        #expect(pennant.tint.hue == 40)
        #expect(pennant.count == 0)
        #expect(pennant.note == nil)
        #expect(pennant.name == "north")
    }

    /// Every way of fetching with `propertiesToFetch` leaves out only attributes that have a stand-in value.
    @Test func everyPartialFetchLeavesOutOnlyAttributesWithAStandIn() throws {
        let directory = try TemporaryDirectory()
        let container = try savedPennant(onDisk: true, in: directory)
        var descriptor = FetchDescriptor<Pennant>()
        descriptor.propertiesToFetch = [\.name]
        var fetched: [Pennant] = []
        fetched += try ModelContext(container).fetch(descriptor)
        try ModelContext(container).enumerate(descriptor, batchSize: 1) { fetched.append($0) }
        fetched += try ModelContext(container).fetch(descriptor, batchSize: 1).map { $0 }
        var sorted = descriptor
        sorted.sortBy = [SortDescriptor(\.name)]
        try ModelContext(container).enumerate(sorted, batchSize: 1) { fetched.append($0) }
        #expect(fetched.count == 4)
        for pennant in fetched {
            for property in pennant.storage.entity.persistedProperties where !property.isRelationship {
                let isUnfetched = pennant.storage.values[property.index] is ModelStorage.NotFetched
                #expect(!isUnfetched || property.standInValue != nil, "\(property.name)")
            }
        }
    }

    @Test func unfetchedAttributeLoadsThroughTheContainerAfterItsContextIsReleased() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(GaugeReading.self, at: directory.store())
        try savedReading(container)
        let gauge = try partialFetch(ModelContext(container))
        #expect(gauge.modelContext == nil)
        #expect(gauge.label == "north")
        #expect(gauge.reading == 7)
        #expect(gauge.note == "windy")
        #expect(gauge.taken == taken)
    }

    @Test func unfetchedAttributeOfARowDeletedElsewhereReadsItsPlaceholder() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(GaugeReading.self, at: directory.store())
        try savedReading(container)
        let context = ModelContext(container)
        let gauge = try partialFetch(context)

        let other = ModelContext(container)
        for model in try other.fetch(FetchDescriptor<GaugeReading>()) { other.delete(model) }
        try other.save()

        // The declared default, nil, the empty value of the type; an attribute with no placeholder was fetched.
        #expect(gauge.reading == 42)
        #expect(gauge.note == nil)
        #expect(gauge.taken == Date(timeIntervalSinceReferenceDate: 0))
        #expect(gauge.site == URL(string: "about:blank"))
        #expect(gauge.kind == .wind)
        #expect(gauge.unit == .imperial)
        #expect(gauge.label == "north")
    }

    @Test func unfetchedAttributeOfARowDeletedWithRawSQLReadsItsPlaceholder() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(GaugeReading.self, at: directory.store())
        try savedReading(container)
        let gauge = try partialFetch(ModelContext(container))

        try runSQLite(directory.store(), #"DELETE FROM "GaugeReading""#)

        #expect(gauge.reading == 42)
        #expect(gauge.note == nil)
        #expect(gauge.unit == .imperial)
    }

    @Test func attributeWithoutPlaceholderIsAlwaysFetched() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(GaugeReading.self, at: directory.store())
        try savedReading(container)
        _ = try partialFetch(ModelContext(container))
        let statement = try #require(container.sqliteStores[0].statementLog.last)
        #expect(statement.contains(#""unit""#))
        #expect(!statement.contains(#""kind""#))
        #expect(!statement.contains(#""site""#))
    }

    /// A subclass's own attribute without a placeholder is read by a partial fetch of the base class too, so it
    /// reads its stored value after the row is gone.
    @Test func subclassAttributeWithoutPlaceholderIsAlwaysFetched() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Matka.self, Lomamatka.self, at: url)
        let setup = ModelContext(container)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        setup.insert(Lomamatka(kohde: "Rooma", alkupvm: start, loppupvm: start, syy: .kulttuuri, budjetti: 900))
        try setup.save()

        var descriptor = FetchDescriptor<Matka>()
        descriptor.propertiesToFetch = [\.kohde]
        let trip = try #require(try ModelContext(container).fetch(descriptor).first as? Lomamatka)
        try runSQLite(url, "DELETE FROM Matka;")
        #expect(trip.syy == .kulttuuri)
        #expect(trip.kohde == "Rooma")
    }

    /// A partial fetch of a base class makes each row a model of its own class.
    @Test func partialFetchOfABaseClassKeepsEachRowsClass() throws {
        let container = try makeInMemoryContainer(Matka.self, Tyomatka.self)
        let setup = ModelContext(container)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        setup.insert(Tyomatka(kohde: "Oslo", alkupvm: start, loppupvm: start, paivaraha: 50, yritys: "Firma"))
        setup.insert(Matka(kohde: "Turku", alkupvm: start, loppupvm: start))
        try setup.save()

        var descriptor = FetchDescriptor<Matka>(sortBy: [SortDescriptor(\.kohde)])
        descriptor.propertiesToFetch = [\.kohde]
        let trips = try ModelContext(container).fetch(descriptor)
        #expect(trips.map { String(describing: type(of: $0)) } == ["Tyomatka", "Matka"])
        #expect((trips[0] as? Tyomatka)?.yritys == "Firma")
    }
}
