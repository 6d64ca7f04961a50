import Foundation
import Testing

@testable import SwiftData

/// What a batched fetch holds per row: its identifier and the values read up front, never the whole row.
@Suite struct BatchedFetchMemoryTests {
    /// 20 gauge readings: 7 columns each, of which a batched fetch keeps `unit` alone (it has no empty value).
    func savedReadings() throws -> ModelContainer {
        let container = try makeInMemoryContainer(GaugeReading.self)
        let context = ModelContext(container)
        for index in 0..<20 {
            let site = URL(string: "https://example.com/\(index)")!
            context.insert(GaugeReading(label: "g\(index)", reading: 1, note: "n", taken: .now, site: site))
        }
        try context.save()
        return container
    }

    @Test func readOfSomePropertiesHoldsOnlyTheirColumns() throws {
        let container = try savedReadings()
        let entity = Schema.Entity.of(GaugeReading.self)
        let unit = entity.persistedProperties[entity.index(of: \GaugeReading.unit)]
        var request = StoreReadRequest(entity: entity)
        request.properties = [unit.index]
        var rows: [SQLiteRow] = []
        try container.sqliteStores[0].readRows(request) { rows.append($0.retained()) }

        #expect(rows.count == 20)
        // Before: each row held all 7 columns, 6 of them NULL.
        #expect(rows.map(\.heldValueCount) == Array(repeating: 1, count: 20))
        #expect(try rows.map { try $0.value(of: unit) as? GaugeUnit } == Array(repeating: .imperial, count: 20))
        #expect(try rows.allSatisfy { try $0.value(of: entity.persistedProperties[0]) is ModelStorage.NotFetched })
    }

    @Test func batchedFetchKeepsOneValuePerRowForEachPropertyWithoutAPlaceholder() throws {
        let container = try savedReadings()
        let context = ModelContext(container)
        let plan = try FetchPlan(descriptor: FetchDescriptor<GaugeReading>(), context: context)
        let (identifiers, lastKnown) = try plan.identifiersWithLastKnownValues()
        #expect(identifiers.count == 20)
        #expect(lastKnown.keptValueCount == 20)
    }
}
