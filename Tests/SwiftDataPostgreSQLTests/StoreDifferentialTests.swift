import Foundation
import SwiftData
import Testing

@Model
final class PGSample {
    var word: String
    var note: String?
    var number: Int
    var amount: Double
    var flag: Bool
    var when: Date

    init(word: String, note: String?, number: Int, amount: Double, flag: Bool, when: Date) {
        self.word = word
        self.note = note
        self.number = number
        self.amount = amount
        self.flag = flag
        self.when = when
    }
}

/// A fetch returns exactly what `Predicate.evaluate` selects, sorted as `sorted(using:)` sorts, on every store:
/// seeded random rows, with the values where stores differ most (canonically equivalent strings, case, nil,
/// negative zero, equal sort keys).
struct StoreDifferentialTests {
    private static let words = [
        "caf\u{E9}", "cafe\u{301}", "Cafe", "apple", "Äpfel", "", "zebra", "a b", "O'Hara", "émigré",
    ]

    private func seed(_ context: ModelContext, count: Int, seed: UInt64) throws {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<count {
            context.insert(
                PGSample(
                    word: Self.words[next(Self.words.count)],
                    note: next(3) == 0 ? nil : Self.words[next(Self.words.count)],
                    number: next(21) - 10,
                    amount: [0.0, -0.0, 1.5, -2.25, 1e-9, 3.0][next(6)],
                    flag: next(2) == 0,
                    when: Date(timeIntervalSinceReferenceDate: Double(next(5)) * 86_400.5)))
        }
        try context.save()
    }

    @Test(arguments: TestedStore.available)
    func fetchesMatchSwift(store: TestedStore) throws {
        let container = try store.makeContainer(PGSample.self)
        try seed(ModelContext(container), count: 300, seed: 42)
        let context = ModelContext(container)
        let all = try context.fetch(FetchDescriptor<PGSample>())
        let pivot = "caf\u{E9}"
        let day = Date(timeIntervalSinceReferenceDate: 86_400.5)
        let (nine, twenty, hundred, isSet) = (9, 20, 100, false)
        let predicates: [Predicate<PGSample>] = [
            #Predicate { $0.word == pivot },
            #Predicate { $0.word < pivot },
            #Predicate { $0.note == nil },
            #Predicate { $0.note != pivot },
            #Predicate { $0.flag && $0.number > 2 },
            #Predicate { !$0.flag || $0.amount == 0 },
            #Predicate { $0.amount < 0 && $0.when >= day },
            #Predicate { $0.word.isEmpty },
            #Predicate { ($0.note ?? "zz") > $0.word },
            #Predicate { $0.word.contains("e") },
            #Predicate { [pivot, "apple"].contains($0.word) },
            #Predicate { $0.number % 3 == 1 },
            // Captured values compared with each other: typed as Swift types them, not as text.
            #Predicate { ($0.flag ? 10 : 9) > nine },
            #Predicate { ($0.note == nil ? hundred : 20) >= twenty },
            #Predicate { $0.flag == isSet },
        ]
        let sorts: [[SortDescriptor<PGSample>]] = [
            [SortDescriptor(\.word), SortDescriptor(\.number)],
            [SortDescriptor(\.note, order: .reverse), SortDescriptor(\.amount)],
            [SortDescriptor(\.when, order: .reverse), SortDescriptor(\.amount)],
        ]
        for (index, predicate) in predicates.enumerated() {
            let expected = try all.filter { try predicate.evaluate($0) }
            for sort in sorts {
                var descriptor = FetchDescriptor(predicate: predicate, sortBy: sort)
                let fetched = try context.fetch(descriptor)
                let keyed = { (models: [PGSample]) in models.map(\.persistentModelID) }
                #expect(
                    Set(keyed(fetched)) == Set(keyed(expected)), "predicate \(index) on \(store.rawValue)")
                #expect(
                    fetched.map(\.word) == expected.sorted(using: sort).map(\.word)
                        && fetched.map(\.number) == expected.sorted(using: sort).map(\.number),
                    "predicate \(index), sort \(sort.count) on \(store.rawValue)")
                descriptor.fetchLimit = 5
                descriptor.fetchOffset = 3
                #expect(try context.fetch(descriptor).count == max(0, min(5, expected.count - 3)))
            }
            #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == expected.count)
        }
    }
}
