import Foundation
import Testing

@testable import SwiftData

/// Fetches from a context with unsaved inserts, changes and deletions: the store reads the untouched rows (filtered,
/// sorted and limited in SQL) and the context merges its changed and inserted models in. Each fetch must return
/// what Swift says: every live model (saved ones in identifier order, then the inserted ones), filtered with
/// `evaluate`, sorted with `sorted(using:)`, then paged.
@Suite struct PendingChangesOracleTests {
    @Test(arguments: differentialSeeds)
    func fetchesWithUnsavedChangesReturnExactlyWhatEvaluateSelects(seed: UInt64) throws {
        let population = try Population(seed: seed)
        let context = ModelContext(population.container)
        var random = SeededRandom(seed: seed &+ 17)
        let cities = try context.fetch(FetchDescriptor<City>())
        var live = try context.fetch(FetchDescriptor<Person>())
        for person in live where random.chance(0.25) {
            Population.randomize(person, &random)
            if random.chance(0.3) { person.city = random.chance(0.2) ? nil : random.pick(cities) }
        }
        for person in live where random.chance(0.1) { context.delete(person) }
        live.removeAll(where: \.isDeleted)
        for _ in 0..<12 {
            let person = Person(name: "", age: 0)
            Population.randomize(person, &random)
            context.insert(person)
            if random.chance(0.7) { person.city = random.pick(cities) }
            live.append(person)
        }
        #expect(context.hasChanges)

        var predicateRandom = SeededRandom(seed: seed &* 31)
        let predicates =
            PredicateCorpus.templates(&predicateRandom) + PredicateCorpus.compositions(&predicateRandom, count: 60)
        var compared = 0
        for named in predicates {
            let (sortName, sort) = random.pick(sortCorpus)
            let offset = random.chance(0.4) ? Int.random(in: 0...10, using: &random) : 0
            let limit = random.chance(0.6) ? Int.random(in: 0...15, using: &random) : nil
            let label =
                "seed \(seed), predicate \(named.name), sort \(sortName), offset \(offset), limit \(String(describing: limit))"
            var descriptor = FetchDescriptor<Person>(predicate: named.predicate, sortBy: sort)
            descriptor.fetchOffset = offset
            descriptor.fetchLimit = limit
            let expected = expectedResult(live, named.predicate, sort, offset: offset, limit: limit)
            let actual = Result { try context.fetch(descriptor).map(\.persistentModelID) }
            switch (expected, actual) {
            case (.success(let want), .success(let got)):
                #expect(got == want, "\(label)")
                #expect(try context.fetchCount(descriptor) == want.count, "fetchCount: \(label)")
                #expect(try context.fetchIdentifiers(descriptor) == want, "fetchIdentifiers: \(label)")
                compared += 1
            case (.failure, .failure):
                compared += 1
            case (.success, .failure(let error)):
                Issue.record("fetch threw \(error) where evaluate succeeded: \(label)")
            case (.failure(let error), .success):
                Issue.record("fetch succeeded where evaluate threw \(error): \(label)")
            }
        }
        #expect(compared == predicates.count)
    }

    /// A `.localizedStandard` sort with a limit runs in SQL, limit included, in `sorted(using:)`'s order.
    @Test(arguments: differentialSeeds)
    func localizedSortsRunInSQLWithTheirLimits(seed: UInt64) throws {
        let population = try Population(seed: seed, people: 120)
        let context = ModelContext(population.container)
        let everyone = try context.fetch(FetchDescriptor<Person>())
        for (name, sort) in sortCorpus where name.contains("localized") {
            for (offset, limit) in [(0, 10), (7, 25), (0, 1_000)] {
                var descriptor = FetchDescriptor<Person>(sortBy: sort)
                descriptor.fetchOffset = offset
                descriptor.fetchLimit = limit
                let fetched = try context.fetch(descriptor).map(\.persistentModelID)
                let sorted = everyone.sorted(using: sort).map(\.persistentModelID)
                #expect(fetched == Array(sorted.dropFirst(offset).prefix(limit)), "seed \(seed), sort \(name)")
                let store = try #require(population.container.sqliteStores.first)
                let select = try #require(store.statementLog.last { $0.hasPrefix("SELECT") })
                #expect(select.contains("COLLATE SWIFTDATA_LOCALIZED") && select.contains("LIMIT"), "\(select)")
            }
        }
    }

    /// Unsaved changes of related models count for predicates that reach them: renamed cities, with and without
    /// unsaved changes of the people fetched.
    @Test(arguments: differentialSeeds)
    func predicatesThroughRelationshipsSeeUnsavedChangesOfRelatedModels(seed: UInt64) throws {
        for changesPeople in [false, true] {
            let population = try Population(seed: seed)
            let context = ModelContext(population.container)
            var random = SeededRandom(seed: seed &+ 23)
            let live = try context.fetch(FetchDescriptor<Person>())
            for city in try context.fetch(FetchDescriptor<City>()) {
                city.name = random.pick(tricky)
                city.population = Int.random(in: 0...1_000, using: &random)
            }
            if changesPeople { live.first?.age += 1 }
            let predicates: [Predicate<Person>] = [
                #Predicate { $0.city?.name == "a" },
                #Predicate { ($0.city?.population ?? 0) > 500 },
                #Predicate { $0.city?.name.starts(with: "E") == true || $0.age > 80 },
            ]
            for (index, predicate) in predicates.enumerated() {
                for limit in [nil, 3] as [Int?] {
                    var descriptor = FetchDescriptor<Person>(predicate: predicate, sortBy: [SortDescriptor(\.name)])
                    descriptor.fetchLimit = limit
                    let expected = expectedResult(live, predicate, [SortDescriptor(\.name)], offset: 0, limit: limit)
                    let label =
                        "seed \(seed), predicate \(index), limit \(String(describing: limit)), people \(changesPeople)"
                    #expect(try context.fetch(descriptor).map(\.persistentModelID) == expected.get(), "\(label)")
                    #expect(try context.fetchCount(descriptor) == expected.get().count, "\(label)")
                }
            }
        }
    }

    /// With one unsaved change, a fetch with a limit reads only the rows of its page from the store.
    @Test func aLimitedFetchWithOneUnsavedChangeReadsOnlyItsPage() throws {
        let population = try Population(seed: 3, people: 200)
        let context = ModelContext(population.container)
        let someone = try #require(try context.fetch(FetchDescriptor<Person>()).first)
        someone.age = 1_000
        var descriptor = FetchDescriptor<Person>(sortBy: [SortDescriptor(\.age, order: .reverse)])
        descriptor.fetchLimit = 5
        let top = try context.fetch(descriptor)
        #expect(top.first === someone)
        #expect(top.count == 5)
        let store = try #require(population.container.sqliteStores.first)
        let select = try #require(store.statementLog.last { $0.hasPrefix("SELECT") && $0.contains("\"Person\"") })
        #expect(select.contains("LIMIT"), "\(select)")
    }
}
