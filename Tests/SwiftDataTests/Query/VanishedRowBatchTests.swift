import Foundation
import Testing

@testable import SwiftData

/// A batched fetch whose rows change between reading the identifiers and loading a batch.
@Suite struct VanishedRowBatchTests {
    /// A store of 25 trips, t0 to t24, with budgets 0 to 24.
    func savedTrips(in directory: TemporaryDirectory) throws -> ModelContainer {
        let container = try makeContainer(Trip.self, at: directory.store())
        let context = ModelContext(container)
        for index in 0..<25 {
            context.insert(Trip(name: "t\(index)", destination: "d\(index)", budget: Double(index)))
        }
        try context.save()
        return container
    }

    let byBudget = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.budget)])

    @Test func rowDeletedByAnotherContextYieldsADeletedModelAtItsPosition() throws {
        let directory = try TemporaryDirectory()
        let container = try savedTrips(in: directory)
        let reader = ModelContext(container)
        let batched = try reader.fetch(byBudget, batchSize: 10)
        let identifiers = try reader.fetchIdentifiers(byBudget)

        let writer = ModelContext(container)
        let doomed = try writer.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.budget == 12 }))
        for trip in doomed { writer.delete(trip) }
        try writer.save()

        #expect(batched.count == 25)
        #expect(batched[11].name == "t11")
        #expect(batched[12].persistentModelID == identifiers[12])
        #expect(batched[12].isDeleted)
        #expect(batched[12].modelContext == nil)
        // A vanished row's attributes read their placeholders: no declared default here, so the empty value.
        #expect(batched[12].name == "")
        #expect(batched[12].rating == nil)
        #expect(batched[13].name == "t13")
        #expect(batched[19].name == "t19")
        #expect(batched.map(\.persistentModelID) == identifiers)
    }

    @Test func rowDeletedWithRawSQLYieldsADeletedModelAtItsPosition() throws {
        let directory = try TemporaryDirectory()
        let container = try savedTrips(in: directory)
        let reader = ModelContext(container)
        let batched = try reader.fetch(byBudget, batchSize: 10)
        let identifiers = try reader.fetchIdentifiers(byBudget)

        try runSQLite(directory.store(), #"DELETE FROM "Trip" WHERE "budget" IN (0, 9, 20)"#)

        #expect(batched.map(\.persistentModelID) == identifiers)
        #expect(batched.map(\.isDeleted) == (0..<25).map { [0, 9, 20].contains($0) })
        #expect(batched[1].name == "t1")
        #expect(batched[9].destination == "")
        #expect(batched[24].name == "t24")
    }

    @Test func registeredModelOfAVanishedRowKeepsTheValuesTheContextKnows() throws {
        let directory = try TemporaryDirectory()
        let container = try savedTrips(in: directory)
        let reader = ModelContext(container)
        let held = try reader.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.budget == 3 }))
        let batched = try reader.fetch(byBudget, batchSize: 10)

        try runSQLite(directory.store(), #"DELETE FROM "Trip" WHERE "budget" = 3"#)

        #expect(batched[3] === held.first)
        #expect(batched[3].name == "t3")
        #expect(batched[4].name == "t4")
    }

    @Test func unreadableBatchYieldsModelsOfTheRightRows() throws {
        let directory = try TemporaryDirectory()
        let container = try savedTrips(in: directory)
        let reader = ModelContext(container)
        let batched = try reader.fetch(byBudget, batchSize: 10)
        let identifiers = try reader.fetchIdentifiers(byBudget)

        // The batch's read fails: the table is gone.
        try runSQLite(directory.store(), #"DROP TABLE "Trip""#)

        #expect(batched.count == 25)
        #expect(batched.map(\.persistentModelID) == identifiers)
        #expect(batched[5].name == "")
    }

    @Test func vanishedRowOfAnEntityWithoutPlaceholdersReadsTheOnesItHas() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(GaugeReading.self, at: directory.store())
        let writer = ModelContext(container)
        for index in 0..<3 {
            let url = URL(string: "https://example.com/\(index)")!
            writer.insert(GaugeReading(label: "g\(index)", reading: 1, note: nil, taken: .now, site: url))
        }
        try writer.save()
        let batched = try ModelContext(container).fetch(
            FetchDescriptor<GaugeReading>(sortBy: [SortDescriptor(\.label)]), batchSize: 2)

        try runSQLite(directory.store(), #"DELETE FROM "GaugeReading" WHERE "_pk" = 2"#)

        #expect(batched[0].label == "g0")
        #expect(batched[1].isDeleted)
        #expect(batched[1].label == "")
        #expect(batched[1].reading == 42)
        #expect(batched[1].site == URL(string: "about:blank"))
        #expect(batched[1].kind == .wind)
        #expect(batched[2].label == "g2")
    }

    @Test func collectionOutlivingItsContextStillLoadsItsBatches() throws {
        let directory = try TemporaryDirectory()
        let container = try savedTrips(in: directory)
        func batchedFetch() throws -> FetchResultsCollection<Trip> {
            try ModelContext(container).fetch(byBudget, batchSize: 10)
        }
        let batched = try batchedFetch()
        #expect(batched[0].name == "t0")
        #expect(batched[24].name == "t24")
        #expect(batched.map(\.name) == (0..<25).map { "t\($0)" })
    }
}
