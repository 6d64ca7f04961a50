import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

@Model
final class PGGauge {
    var label: String
    var reading: Double
    var note: String?
    var station: PGStation?

    init(label: String, reading: Double, note: String?) {
        self.label = label
        self.reading = reading
        self.note = note
    }
}

@Model
final class PGStation {
    var name: String
    @Relationship(inverse: \PGGauge.station) var gauges: [PGGauge] = []

    init(name: String) {
        self.name = name
    }
}

/// A fetch with `propertiesToFetch` asks the server for the named properties' columns only (with the key and the
/// to-one relationships' keys), and the other attributes load when first read, as on SQLite.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLPartialFetchTests {
    /// The entity of `PGGauge`, as a model of it knows it.
    private let entity = PGGauge(label: "", reading: 0, note: nil).storage.entity

    /// The index of a property of `PGGauge`.
    private func index(of name: String) throws -> Int {
        try #require(entity.property(named: name)).index
    }

    @Test func aReadOfSomePropertiesSelectsTheirColumnsTheKeyAndToOneKeysOnly() throws {
        let label = try index(of: "label")
        #expect(
            try PostgreSQLColumnSelection.selectList(of: entity, properties: [label])
                == #""_pk", "label", "station""#)
        #expect(
            try PostgreSQLColumnSelection.selectList(of: entity, properties: [label, try index(of: "note")])
                == #""_pk", "label", "note", "station""#)
        #expect(
            try PostgreSQLColumnSelection.selectList(of: entity, properties: nil)
                == #""_pk", "label", "reading", "note", "station""#)
    }

    @Test func namedPropertiesHoldTheirValuesAndTheOthersLoadWhenFirstRead() throws {
        let (container, database) = try makePostgreSQLContainer(PGGauge.self)
        let setup = ModelContext(container)
        let station = PGStation(name: "Tromsø")
        for number in 0..<3 {
            let gauge = PGGauge(label: "g\(number)", reading: Double(number) + 0.5, note: "note \(number)")
            setup.insert(gauge)
            gauge.station = station
        }
        try setup.save()

        var descriptor = FetchDescriptor<PGGauge>(sortBy: [SortDescriptor(\.label)])
        descriptor.propertiesToFetch = [\.label]
        let context = ModelContext(container)
        let gauges = try context.fetch(descriptor)
        let (label, reading, note) = (try index(of: "label"), try index(of: "reading"), try index(of: "note"))
        // The fetch left the other attributes unloaded: nothing was read for them.
        for gauge in gauges {
            #expect(gauge.storage.values[label] as? String != nil)
            #expect(gauge.storage.values[reading] is ModelStorage.NotFetched)
            #expect(gauge.storage.values[note] is ModelStorage.NotFetched)
        }
        #expect(gauges.map(\.label) == ["g0", "g1", "g2"])
        // Changed on the server after the fetch: a value the fetch had read would not show the change.
        try TestServer.execute(#"UPDATE "PGGauge" SET "reading" = "reading" + 100"#, on: database)
        #expect(gauges.map(\.reading) == [100.5, 101.5, 102.5])
        #expect(gauges.map(\.note) == ["note 0", "note 1", "note 2"])
        // To-one relationships are always loaded.
        #expect(gauges.map { $0.station?.name } == ["Tromsø", "Tromsø", "Tromsø"])
    }

    /// A partial fetch of a model the context holds refreshes only what it read, and leaves its other values be.
    @Test func aPartialFetchOfHeldModelsKeepsTheirOtherValues() throws {
        let (container, database) = try makePostgreSQLContainer(PGGauge.self)
        let context = ModelContext(container)
        context.insert(PGGauge(label: "a", reading: 1, note: "first"))
        try context.save()
        let held = try #require(try context.fetch(FetchDescriptor<PGGauge>()).first)
        #expect(held.note == "first")
        try TestServer.execute(#"UPDATE "PGGauge" SET "label" = 'b', "note" = 'second'"#, on: database)
        var descriptor = FetchDescriptor<PGGauge>()
        descriptor.propertiesToFetch = [\.label]
        let fetched = try #require(try context.fetch(descriptor).first)
        #expect(fetched === held)
        #expect(held.label == "b")
        #expect(held.note == "first")
    }
}
