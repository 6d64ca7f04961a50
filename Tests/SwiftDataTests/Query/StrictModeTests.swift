import Foundation
import SwiftData
import Testing

/// `allowsInMemoryEvaluation = false` never answers from memory, even when SQL stops a query because Swift must
/// decide (`nil!`, a division by zero).
@Suite struct StrictModeTests {
    func makeContext() throws -> ModelContext {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let rated = Trip(name: "rated", destination: "X", budget: 10)
        rated.rating = 4
        context.insert(rated)
        context.insert(Trip(name: "unrated", destination: "Y", budget: 20))
        try context.save()
        return context
    }

    static let strictPredicates: [Predicate<Trip>] = [
        #Predicate<Trip> { $0.rating! > 3 },
        #Predicate<Trip> { $0.budget / 0 > 1 },
    ]

    @Test(arguments: strictPredicates)
    func strictFetchesThrowWhenSQLCannotDecide(predicate: Predicate<Trip>) throws {
        let context = try makeContext()
        var descriptor = FetchDescriptor<Trip>(predicate: predicate)
        descriptor.allowsInMemoryEvaluation = false
        let fetchError = #expect(throws: SwiftDataError.self) { try context.fetch(descriptor) }
        #expect(fetchError == .unsupportedPredicate)
        #expect(fetchError?.description.contains("Trip") == true)
        #expect(throws: SwiftDataError.unsupportedPredicate) { try context.fetchCount(descriptor) }
        #expect(throws: SwiftDataError.unsupportedPredicate) { try context.fetchIdentifiers(descriptor) }
    }

    @Test func theDefaultStillEvaluatesInMemory() throws {
        let context = try makeContext()
        let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.budget / 0 > 1 })
        #expect(try context.fetchCount(descriptor) == 2)
    }
}
