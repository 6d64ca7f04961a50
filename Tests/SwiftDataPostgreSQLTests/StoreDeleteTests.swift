import Foundation
import SwiftData
import Testing

/// `delete(model:where:)` and `deleteAllData()`, on each store.
@Suite struct StoreDeleteTests {
    private func samples(_ container: ModelContainer) throws -> [Int] {
        try ModelContext(container).fetch(FetchDescriptor<PGSample>(sortBy: [SortDescriptor(\.number)]))
            .map(\.number)
    }

    /// A model with no delete rule to apply: its matching rows are deleted without loading the models.
    @Test(arguments: TestedStore.available)
    func aBatchDeleteDeletesTheMatchingRowsAtTheSave(store: TestedStore) throws {
        let location = try store.makeLocation()
        let container = try store.container(PGSample.self, at: location)
        let writer = ModelContext(container)
        for number in -3...3 {
            writer.insert(PGSample(word: "w", note: nil, number: number, amount: 0, flag: number > 0, when: .now))
        }
        try writer.save()

        let context = ModelContext(container)
        try context.delete(model: PGSample.self, where: #Predicate { $0.number < 0 || $0.flag })
        #expect(context.hasChanges)
        // Until the save, the context leaves the rows out and the store keeps them.
        #expect(try context.fetch(FetchDescriptor<PGSample>()).map(\.number).sorted() == [0])
        #expect(try context.fetchCount(FetchDescriptor<PGSample>()) == 1)
        #expect(try samples(container) == [-3, -2, -1, 0, 1, 2, 3])
        try context.save()
        #expect(!context.hasChanges)
        #expect(try samples(container) == [0])
        #expect(try samples(try store.container(PGSample.self, at: location)) == [0])

        try context.delete(model: PGSample.self)
        try context.save()
        #expect(try samples(container).isEmpty)
    }

    /// A batch delete of models whose relationships have delete rules applies them: the stops go with their trips,
    /// and the tags stay, without the deleted trips.
    @Test(arguments: TestedStore.available)
    func aBatchDeleteAppliesTheDeleteRules(store: TestedStore) throws {
        let container = try store.makeContainer(PGTrip.self)
        let writer = ModelContext(container)
        let tag = PGTag(label: "all")
        for number in 0..<4 {
            let trip = PGTrip(code: "T\(number)", name: "", budget: Double(number))
            writer.insert(trip)
            trip.stops = [PGStop(title: "S\(number)", order: number)]
            trip.tags = [tag]
        }
        try writer.save()

        let context = ModelContext(container)
        try context.delete(model: PGTrip.self, where: #Predicate { $0.budget >= 2 })
        try context.save()
        let reader = ModelContext(container)
        #expect(
            try reader.fetch(FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.code)])).map(\.code) == ["T0", "T1"])
        #expect(
            try reader.fetch(FetchDescriptor<PGStop>(sortBy: [SortDescriptor(\.title)])).map(\.title) == ["S0", "S1"])
        let tags = try reader.fetch(FetchDescriptor<PGTag>())
        #expect(tags.map { $0.trips.map(\.code).sorted() } == [["T0", "T1"]])
    }

    @Test(arguments: TestedStore.available)
    func deleteAllDataEmptiesTheStoreAndLeavesItUsable(store: TestedStore) throws {
        let location = try store.makeLocation()
        let container = try store.container(PGTrip.self, at: location)
        let context = ModelContext(container)
        let trip = PGTrip(code: "A", name: "first")
        context.insert(trip)
        trip.stops = [PGStop(title: "stop", order: 0)]
        trip.tags = [PGTag(label: "tag")]
        try context.save()

        container.deleteAllData()
        for reader in [context, ModelContext(container), ModelContext(try store.container(PGTrip.self, at: location))] {
            #expect(try reader.fetchCount(FetchDescriptor<PGTrip>()) == 0)
            #expect(try reader.fetchCount(FetchDescriptor<PGStop>()) == 0)
            #expect(try reader.fetchCount(FetchDescriptor<PGTag>()) == 0)
        }
        // The unique value is free again, and the new model gets an identifier of its own.
        let again = PGTrip(code: "A", name: "second")
        context.insert(again)
        try context.save()
        #expect(again.persistentModelID != trip.persistentModelID)
        let reopened = ModelContext(try store.container(PGTrip.self, at: location))
        #expect(try reopened.fetch(FetchDescriptor<PGTrip>()).map(\.name) == ["second"])
    }
}
