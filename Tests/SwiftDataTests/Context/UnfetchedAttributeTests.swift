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
