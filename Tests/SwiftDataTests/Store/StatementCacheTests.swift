import Foundation
import Testing

@testable import SwiftData

@Model
final class PagedRow {
    var number: Int
    var group: Int

    init(number: Int, group: Int) {
        self.number = number
        self.group = group
    }
}

@Suite struct StatementCacheTests {
    private func makeContainer() throws -> ModelContainer {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("paging-\(UUID().uuidString).store")
        let container = try ModelContainer(for: PagedRow.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        for number in 0..<10_000 { context.insert(PagedRow(number: number, group: number % 7)) }
        try context.save()
        return container
    }

    /// Paging with `fetchOffset` runs one statement for every page: the limit and offset are parameters.
    @Test func pagingThroughTenThousandRowsPreparesOneStatement() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let before = container.sqliteStores[0].pool.cachedStatementCounts.reduce(0, +)
        var seen: [Int] = []
        for page in 0..<100 {
            var descriptor = FetchDescriptor<PagedRow>(sortBy: [SortDescriptor(\.number)])
            descriptor.fetchLimit = 100
            descriptor.fetchOffset = page * 100
            seen += try context.fetch(descriptor).map(\.number)
        }
        #expect(seen == Array(0..<10_000))
        let after = container.sqliteStores[0].pool.cachedStatementCounts.reduce(0, +)
        #expect(after - before <= 2)
        let pages = container.sqliteStores[0].statementLog.filter { $0.contains("LIMIT") }
        #expect(Set(pages).count == 1)
        #expect(pages.first?.hasSuffix("LIMIT ?1 OFFSET ?2") == true)
    }

    /// SQL that varies without end (a different predicate each time) keeps at most the cache's limit of prepared
    /// statements on each connection.
    @Test func aConnectionKeepsABoundedNumberOfStatements() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        for count in 0..<(SQLiteConnection.statementLimit + 150) {
            // Each predicate has its own shape, so its own SQL.
            let values = Array(0...count)
            let fetched = try context.fetchCount(
                FetchDescriptor<PagedRow>(predicate: #Predicate { values.contains($0.number) }))
            #expect(fetched == count + 1)
        }
        let counts = container.sqliteStores[0].pool.cachedStatementCounts
        #expect(counts.allSatisfy { $0 <= SQLiteConnection.statementLimit })
        #expect(counts.contains { $0 == SQLiteConnection.statementLimit })
    }
}
