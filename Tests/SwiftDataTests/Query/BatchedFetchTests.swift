import Foundation
import Testing

@testable import SwiftData

@Suite struct BatchedFetchTests {
    func context(count: Int) throws -> ModelContext {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        for index in 0..<count { context.insert(Trip(name: "t\(index)", destination: "d", budget: Double(index))) }
        try context.save()
        return context
    }

    @Test func batchedFetchLoadsBatchesInOrder() throws {
        let context = try context(count: 25)
        context.insert(Trip(name: "pending", destination: "d", budget: 12.5))
        let descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.budget, order: .reverse)])
        let all = try context.fetch(descriptor)
        let batched = try context.fetch(descriptor, batchSize: 10)
        #expect(batched.count == 26)
        #expect(batched.map(\.name) == all.map(\.name))
        let identifiers = try context.fetchIdentifiers(descriptor, batchSize: 7)
        #expect(Array(identifiers) == all.map(\.persistentModelID))
    }

    @Test func batchesReadOnlyTheRowsTheyNeed() throws {
        let context = try context(count: 30)
        let fresh = ModelContext(context.container)
        let batched = try fresh.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.budget)]), batchSize: 10)
        let store = context.container.sqliteStores[0]
        let before = store.statementCount
        #expect(batched[0].name == "t0")
        #expect(batched[9].name == "t9")
        #expect(store.statementCount - before == 1)
        #expect(batched[10].name == "t10")
        #expect(store.statementCount - before == 2)
    }

    @Test func strictFetchesRefuseWhatSQLCannotRun() throws {
        let context = ModelContext(try makeInMemoryContainer(EveryType.self))
        var descriptor = FetchDescriptor<EveryType>(predicate: #Predicate { $0.list.contains("a") })
        descriptor.allowsInMemoryEvaluation = false
        let error = #expect(throws: SwiftDataError.self) { try context.fetch(descriptor) }
        #expect(error == .unsupportedPredicate)
        #expect(error?.description.contains("EveryType.list is stored as JSON") == true)

        var sorted = FetchDescriptor<EveryType>(sortBy: [SortDescriptor(\.decimal)])
        sorted.allowsInMemoryEvaluation = false
        #expect(throws: SwiftDataError.unsupportedSortDescriptor) { try context.fetch(sorted) }
    }
}
