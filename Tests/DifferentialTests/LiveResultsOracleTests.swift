import Foundation
import SwiftData
import Testing

@Model
final class OracleChore {
    var title: String
    var isDone: Bool
    var priority: Int
    var room: String
    var notes: String

    init(title: String, isDone: Bool, priority: Int, room: String) {
        self.title = title
        self.isDone = isDone
        self.priority = priority
        self.room = room
        self.notes = ""
    }
}

/// A live query's results equal a fresh fetch of its descriptor after every change, whatever made it: seeded random
/// inserts, edits, deletions, saves and rollbacks, in the observer's context and in another one, with ties in the
/// sort so that the order of equal models counts too.
@Suite struct LiveResultsOracleTests {
    static let descriptors: [FetchDescriptor<OracleChore>] = [
        FetchDescriptor(
            predicate: #Predicate { !$0.isDone && $0.priority >= 2 },
            sortBy: [SortDescriptor(\.priority, order: .reverse), SortDescriptor(\.title)]),
        FetchDescriptor(sortBy: [SortDescriptor(\.title)]),
        FetchDescriptor(predicate: #Predicate { $0.title.contains("a") }),
        FetchDescriptor(
            predicate: #Predicate { $0.priority != 3 },
            sortBy: [SortDescriptor(\.room, comparator: .localizedStandard)]),
    ]

    /// A model as a failure shows it: its identity and the values the descriptors read.
    static func describe(_ chore: OracleChore) -> String {
        "\(chore.persistentModelID.description.split(separator: "/").last ?? "")|\(chore.title)|\(chore.priority)|\(chore.room)|\(chore.isDone ? "done" : "open")"
    }

    @Test(arguments: Array(1...8) as [UInt64])
    @MainActor func resultsEqualAFreshFetchAfterEveryChange(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let container = try ModelContainer(
            for: OracleChore.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let other = ModelContext(container)
        let titles = ["a", "b", "ab", "c", "ca", "d"]
        let rooms = ["Hall", "hall", "kitchen", "Kitchen 10", "kitchen 9"]
        func chore() -> OracleChore {
            OracleChore(
                title: random.pick(titles), isDone: random.chance(0.3), priority: Int.random(in: 0..<5, using: &random),
                room: random.pick(rooms))
        }
        for _ in 0..<20 { context.insert(chore()) }
        try context.save()

        let observers = try Self.descriptors.map { try ResultsObserver(fetchDescriptor: $0, modelContext: context) }
        let sectioned = try ResultsObserver<OracleChore, String>(
            filterBy: #Predicate { $0.priority > 0 }, sortBy: [SortDescriptor(\.title)], sectionBy: \.room,
            modelContext: context)

        for step in 0..<150 {
            let held = try context.fetch(FetchDescriptor<OracleChore>())
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: context.insert(chore())
            case 2, 3:
                if let model = held.isEmpty ? nil : random.pick(held) {
                    switch Int.random(in: 0..<5, using: &random) {
                    case 0: model.priority = Int.random(in: 0..<5, using: &random)
                    case 1: model.isDone.toggle()
                    case 2: model.title = random.pick(titles)
                    case 3: model.room = random.pick(rooms)
                    default: model.notes += "x"
                    }
                }
            case 4: if let model = held.isEmpty ? nil : random.pick(held) { context.delete(model) }
            case 5:
                // A save fails when it edits a row the other context deleted meanwhile: a conflict, resolved by
                // rolling back.
                do { try context.save() } catch { context.rollback() }
            case 6: if random.chance(0.2) { context.rollback() }
            default:
                let theirs = try other.fetch(FetchDescriptor<OracleChore>())
                switch Int.random(in: 0..<3, using: &random) {
                case 0: other.insert(chore())
                case 1: if let model = theirs.isEmpty ? nil : random.pick(theirs) { other.delete(model) }
                default:
                    if let model = theirs.isEmpty ? nil : random.pick(theirs) {
                        model.priority = Int.random(in: 0..<5, using: &random)
                        model.title = random.pick(titles)
                    }
                }
                do { try other.save() } catch { other.rollback() }
            }
            for (position, (observer, descriptor)) in zip(observers, Self.descriptors).enumerated() {
                let shown = observer.results.map(Self.describe)
                let fetched = try context.fetch(descriptor).map(Self.describe)
                #expect(shown == fetched, "seed \(seed), step \(step), descriptor \(position)")
                if shown != fetched { return }
            }
            let fetched = try context.fetch(sectioned.fetchDescriptor)
            let sections = try #require(sectioned.sections)
            #expect(
                sections.flatMap { $0.map(Self.describe) } == fetched.map(Self.describe), "seed \(seed), step \(step)")
            #expect(sections.allSatisfy { section in section.allSatisfy { $0.room == section.title } })
        }
    }
}
