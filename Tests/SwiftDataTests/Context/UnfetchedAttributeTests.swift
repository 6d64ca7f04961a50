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
        let statement = try #require(container.stores[0].statementLog.last)
        #expect(statement.contains(#""unit""#))
        #expect(!statement.contains(#""kind""#))
        #expect(!statement.contains(#""site""#))
    }
}
