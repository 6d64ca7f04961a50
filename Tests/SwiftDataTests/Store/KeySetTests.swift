import Foundation
import Testing

@testable import SwiftData

/// Rows deleted by key are matched a run of consecutive keys at a time when there are few runs, and with a JSON
/// list of keys otherwise; either way exactly those rows go, and references to them are cleared.
@Suite struct KeySetTests {
    @Test func consecutiveKeysBecomeRunsAndScatteredOnesAList() {
        let runs = SQLiteKeySet([5, 3, 4, 10, 11, 4, 20])
        #expect(runs.runs == [3...5, 10...11, 20...20])
        #expect(runs.list == nil)
        let scattered = SQLiteKeySet(Array(stride(from: Int64(1), through: 200, by: 2)))
        #expect(scattered.runs == nil)
        #expect(scattered.list != nil)
        #expect(SQLiteKeySet([]).runs == [])
    }

    @Test func conditionsNumberTheirParametersFromTheFirstOneGiven() {
        let runs = SQLiteKeySet([1, 2, 3, 7]).condition(on: "k", firstParameter: 3)
        #expect(runs.sql == "(k BETWEEN ?3 AND ?4 OR k BETWEEN ?5 AND ?6)")
        #expect(runs.bindings == [.integer(1), .integer(3), .integer(7), .integer(7)])
        let none = SQLiteKeySet([]).condition(on: "k")
        #expect(none.sql == "0")
        #expect(none.bindings.isEmpty)
        let list = SQLiteKeySet(Array(stride(from: Int64(1), through: 100, by: 3))).condition(
            on: "k", firstParameter: 2)
        #expect(list.sql == "k IN (SELECT value FROM json_each(?2))")
        #expect(list.bindings.count == 1)
    }

    @Test(arguments: [
        // Ten consecutive airports, then every other one of the rest: too many runs, so a list.
        Array(0..<10) + Array(stride(from: 11, to: 60, by: 2)),
        // Two blocks: two runs.
        Array(5..<25) + Array(40..<45),
    ])
    func deletedRowsGoAndTheirReferencesAreCleared(deletedPositions: [Int]) throws {
        let container = try makeInMemoryContainer(Airport.self)
        do {
            let context = ModelContext(container)
            for index in 0..<60 {
                let airport = Airport(code: String(format: "A%02d", index))
                let flight = Flight(number: String(format: "F%02d", index))
                context.insert(airport)
                flight.origin = airport
            }
            try context.save()
        }
        do {
            // Only the airports are loaded: the flights' references are cleared by the store.
            let context = ModelContext(container)
            let airports = try context.fetch(FetchDescriptor<Airport>(sortBy: [SortDescriptor(\.code)]))
            for position in deletedPositions { context.delete(airports[position]) }
            try context.save()
        }
        let deletedCodes = Set(deletedPositions.map { String(format: "A%02d", $0) })
        let context = ModelContext(container)
        let remaining = try context.fetch(FetchDescriptor<Airport>()).map(\.code)
        #expect(Set(remaining) == Set((0..<60).map { String(format: "A%02d", $0) }).subtracting(deletedCodes))
        for flight in try context.fetch(FetchDescriptor<Flight>()) {
            let code = "A" + flight.number.dropFirst()
            #expect(flight.origin?.code == (deletedCodes.contains(code) ? nil : code))
        }
    }
}
