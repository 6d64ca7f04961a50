import Foundation
import Testing

@testable import SwiftData

/// Checks the exact SQL that fetches send, so pushdown regressions show up as a changed golden.
@Suite struct SQLGoldenTests {
    func lastSelect(_ container: ModelContainer) throws -> String {
        let store = try #require(container.sqliteStores.first)
        return try #require(store.statementLog.last { $0.hasPrefix("SELECT") })
    }

    @Test func predicateSortLimitAndOffsetArePushedDown() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let minimum = 100.0
        var descriptor = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.destination == "France" && !($0.budget < minimum) || $0.rating == nil },
            sortBy: [SortDescriptor(\.startDate, order: .reverse)]
        )
        descriptor.fetchLimit = 10
        descriptor.fetchOffset = 5
        _ = try context.fetch(descriptor)
        #expect(
            try lastSelect(container) == """
                SELECT "_pk", "name", "destination", "startDate", "budget", "rating" FROM "Trip" \
                WHERE ((("Trip"."destination" IS ?1 COLLATE SWIFTDATA) AND (NOT ("Trip"."budget" < ?2))) OR ("Trip"."rating" IS NULL)) \
                ORDER BY "startDate" DESC, "_pk" LIMIT ?3 OFFSET ?4
                """
        )
    }

    @Test func countAndEnumRawValuesArePushedDown() throws {
        let container = try makeInMemoryContainer(Task.self)
        let context = ModelContext(container)
        _ = try context.fetchCount(FetchDescriptor<Task>(predicate: #Predicate { $0.priority.rawValue >= 2 }))
        let store = try #require(container.sqliteStores.first)
        #expect(store.statementLog.last == #"SELECT count(*) FROM "Task" WHERE ("Task"."priority" >= ?1)"#)
    }

    @Test func unsupportedPredicatesFetchCandidatesAndFilterInMemory() throws {
        let container = try makeInMemoryContainer(EveryType.self)
        let context = ModelContext(container)
        _ = try context.fetch(FetchDescriptor<EveryType>(predicate: #Predicate { $0.list.contains("a") }))
        #expect(try lastSelect(container).hasSuffix(#"FROM "EveryType" ORDER BY "_pk""#))
    }

    @Test func compositeFieldsAreColumnsInSQL() throws {
        let container = try makeInMemoryContainer(Visit.self)
        let context = ModelContext(container)
        _ = try context.fetch(FetchDescriptor<Visit>(predicate: #Predicate { $0.place.point.latitude > 62 }))
        #expect(
            try lastSelect(container).hasSuffix(
                #"WHERE ("Visit"."place.point.latitude" > ?1) ORDER BY "_pk""#))
        _ = try context.fetch(FetchDescriptor<Visit>(predicate: #Predicate { $0.maybe?.a == 7 }))
        #expect(
            try lastSelect(container).contains(
                #"(CASE WHEN "Visit"."maybe" IS NULL THEN NULL ELSE "Visit"."maybe.a" END) IS ?1"#
            )
        )
        // Computed properties read the same fields but are not them: those predicates run in memory.
        _ = try context.fetch(FetchDescriptor<Visit>(predicate: #Predicate { $0.place.point.doubledLatitude > 125 }))
        #expect(try lastSelect(container).hasSuffix(#"FROM "Visit" ORDER BY "_pk""#))
        _ = try context.fetch(FetchDescriptor<Visit>(predicate: #Predicate { $0.place.point.swapped.latitude == 0 }))
        #expect(try lastSelect(container).hasSuffix(#"FROM "Visit" ORDER BY "_pk""#))
    }
}
