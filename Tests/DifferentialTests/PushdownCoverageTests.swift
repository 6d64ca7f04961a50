import Foundation
import Testing

@testable import SwiftData

/// Guards what runs in SQL: every template of the corpus must translate, so the oracle tests compare SQL with
/// Swift rather than Swift with itself. Sorts by a key path through a relationship or `rawValue` run in memory.
@Suite struct PushdownCoverageTests {
    @Test(arguments: differentialSeeds)
    func everyCorpusTemplateTranslatesToSQL(seed: UInt64) throws {
        let population = try Population(seed: seed, people: 1)
        let store = population.container.sqliteStores[0]
        let entity = Schema.Entity.of(Person.self)
        var random = SeededRandom(seed: seed &* 31)
        for named in PredicateCorpus.templates(&random) {
            #expect(throws: Never.self, "\(named.name)") {
                _ = try PredicateTranslation.whereClause(
                    for: named.predicate, entity: entity, layouts: store.layouts, dialect: store.dialect)
            }
        }
    }

    @Test func sortsRunInSQLExceptKeyPathChains() throws {
        let population = try Population(seed: 1, people: 1)
        let layout = try #require(population.container.sqliteStores[0].layouts["Person"])
        let entity = Schema.Entity.of(Person.self)
        let inMemory = sortCorpus.filter { (_, sort) in
            (try? SortTranslation.orderBy(sort, entity: entity, layout: layout, dialect: SQLiteDialect())) == nil
        }.map(\.0)
        #expect(inMemory == ["level raw, age reverse", "city name"])
    }
}
