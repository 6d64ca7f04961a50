import Foundation
import SwiftData
import Testing

/// The seeds every differential test runs with; a failure message names the seed that found it.
let differentialSeeds: [UInt64] = [1, 7, 42]

/// Sort descriptor sets, each compared with `sorted(using:)`.
let sortCorpus: [(String, [SortDescriptor<Person>])] = [
    ("none", []),
    ("name", [SortDescriptor(\Person.name)]),
    ("name reverse", [SortDescriptor(\Person.name, order: .reverse)]),
    ("nickname", [SortDescriptor(\Person.nickname)]),
    ("nickname reverse, age", [SortDescriptor(\Person.nickname, order: .reverse), SortDescriptor(\Person.age)]),
    ("age, name", [SortDescriptor(\Person.age), SortDescriptor(\Person.name)]),
    ("score reverse, birth", [SortDescriptor(\Person.score, order: .reverse), SortDescriptor(\Person.birth)]),
    ("level raw, age reverse", [SortDescriptor(\Person.level.rawValue), SortDescriptor(\Person.age, order: .reverse)]),
    ("rating", [SortDescriptor(\Person.rating)]),
    ("rating reverse, name", [SortDescriptor(\Person.rating, order: .reverse), SortDescriptor(\Person.name)]),
    ("name lexical", [SortDescriptor(\Person.name, comparator: .lexical)]),
    ("city name", [SortDescriptor(\Person.city?.name)]),
    ("name localizedStandard", [SortDescriptor(\Person.name, comparator: .localizedStandard)]),
    (
        "nickname localizedStandard reverse, age",
        [
            SortDescriptor(\Person.nickname, comparator: .localizedStandard, order: .reverse),
            SortDescriptor(\Person.age),
        ]
    ),
    ("name localized reverse", [SortDescriptor(\Person.name, comparator: .localized, order: .reverse)]),
    ("nickname localized", [SortDescriptor(\Person.nickname, comparator: .localized)]),
]

/// What Swift says a fetch must return: every person, filtered with `evaluate`, sorted with `sorted(using:)`,
/// then paged; or the error `evaluate` throws.
func expectedResult(
    _ people: [Person],
    _ predicate: Predicate<Person>,
    _ sort: [SortDescriptor<Person>],
    offset: Int,
    limit: Int?
) -> Result<[PersistentIdentifier], any Error> {
    Result {
        var matches = try people.filter { try predicate.evaluate($0) }
        if !sort.isEmpty { matches.sort(using: sort) }
        let start = min(offset, matches.count)
        let end = limit.map { min(matches.count, start + $0) } ?? matches.count
        return matches[start..<end].map(\.persistentModelID)
    }
}

@Suite struct PredicateOracleTests {
    static var cases: [(seed: UInt64, predicates: [NamedPredicate])] {
        differentialSeeds.map { seed in
            var random = SeededRandom(seed: seed &* 31)
            return (seed, PredicateCorpus.templates(&random) + PredicateCorpus.compositions(&random, count: 120))
        }
    }

    @Test(arguments: differentialSeeds)
    func fetchReturnsExactlyWhatEvaluateSelects(seed: UInt64) throws {
        let population = try Population(seed: seed)
        let context = ModelContext(population.container)
        let everyone = try context.fetch(FetchDescriptor<Person>())
        var random = SeededRandom(seed: seed &* 31)
        let predicates = PredicateCorpus.templates(&random) + PredicateCorpus.compositions(&random, count: 120)
        var pageRandom = SeededRandom(seed: seed &+ 99)
        var compared = 0
        for named in predicates {
            let (sortName, sort) = pageRandom.pick(sortCorpus)
            let offset = pageRandom.chance(0.3) ? Int.random(in: 0...10, using: &pageRandom) : 0
            let limit = pageRandom.chance(0.3) ? Int.random(in: 0...15, using: &pageRandom) : nil
            let expected = expectedResult(everyone, named.predicate, sort, offset: offset, limit: limit)
            var descriptor = FetchDescriptor<Person>(predicate: named.predicate, sortBy: sort)
            descriptor.fetchOffset = offset
            descriptor.fetchLimit = limit
            let actual = Result { try context.fetch(descriptor).map(\.persistentModelID) }
            let label =
                "seed \(seed), predicate \(named.name), sort \(sortName), offset \(offset), limit \(String(describing: limit))"
            switch (expected, actual) {
            case (.success(let want), .success(let got)):
                #expect(got == want, "\(label)")
                let count = try context.fetchCount(descriptor)
                #expect(count == want.count, "fetchCount: \(label)")
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
        #expect(predicates.count > 150)
    }

    @Test(arguments: differentialSeeds)
    func pendingChangesTakePartExactly(seed: UInt64) throws {
        let population = try Population(seed: seed, people: 40)
        let context = ModelContext(population.container)
        var random = SeededRandom(seed: seed &+ 5)
        let saved = try context.fetch(FetchDescriptor<Person>())
        for person in saved where random.chance(0.2) { person.age = Int.random(in: -5...90, using: &random) }
        for person in saved where random.chance(0.1) { context.delete(person) }
        for _ in 0..<5 {
            let person = Person(name: random.pick(tricky), age: Int.random(in: -5...90, using: &random))
            context.insert(person)
        }
        let live = saved.filter { !$0.isDeleted } + context.insertedModelsArray.compactMap { $0 as? Person }
        let ordered = live.sorted { $0.persistentModelID < $1.persistentModelID }
        let predicates = PredicateCorpus.templates(&random).filter { $0.name != "rating! > small" }
        for named in predicates {
            let sort = [SortDescriptor(\Person.age), SortDescriptor(\Person.name)]
            let expected = try ordered.filter { try named.predicate.evaluate($0) }.sorted(using: sort)
            let actual = try context.fetch(FetchDescriptor<Person>(predicate: named.predicate, sortBy: sort))
            #expect(actual.map(\.persistentModelID) == expected.map(\.persistentModelID), "seed \(seed): \(named.name)")
        }
    }

    /// `delete(model:where:)` with each template as the deleting predicate: afterwards every template fetch returns
    /// exactly the people that predicate does not select, before the save (rows left out in SQL, or models loaded
    /// through a relationship and deleted as usual) and after it.
    @Test(arguments: differentialSeeds)
    func deletionsByPredicateLeaveExactlyTheRest(seed: UInt64) throws {
        var random = SeededRandom(seed: seed &+ 11)
        let templates = PredicateCorpus.templates(&random).filter { $0.name != "rating! > small" }
        let sort = [SortDescriptor(\Person.age), SortDescriptor(\Person.name)]
        for deleting in templates.filter({ _ in random.chance(0.25) }) {
            let population = try Population(seed: seed, people: 30)
            // The oracle's context stays alive: its models load their relationships through it.
            let oracle = ModelContext(population.container)
            let everyone = try oracle.fetch(FetchDescriptor<Person>())
            let remaining = try everyone.filter { try !deleting.predicate.evaluate($0) }
            let context = ModelContext(population.container)
            try context.delete(model: Person.self, where: deleting.predicate)

            func check(_ context: ModelContext, _ stage: String) throws {
                for named in templates where random.chance(0.3) {
                    let expected = try remaining.filter { try named.predicate.evaluate($0) }.sorted(using: sort)
                    let descriptor = FetchDescriptor<Person>(predicate: named.predicate, sortBy: sort)
                    #expect(
                        try context.fetch(descriptor).map(\.persistentModelID) == expected.map(\.persistentModelID),
                        "seed \(seed), \(stage), deleting \(deleting.name): \(named.name)")
                    #expect(try context.fetchCount(descriptor) == expected.count)
                }
            }
            try check(context, "before saving")
            // Reading the cities' people loads deleted rows, whose models become ordinary deletions.
            for city in try context.fetch(FetchDescriptor<City>()) where random.chance(0.5) {
                #expect(city.people.allSatisfy { !$0.isDeleted })
            }
            try check(context, "after loading relationships")
            try context.save()
            try check(ModelContext(population.container), "after saving")
            withExtendedLifetime(oracle) {}
        }
    }
}
