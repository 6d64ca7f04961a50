import Foundation
import SwiftData
import Testing

/// A save a store refuses throws a typed error, writes nothing of the save, and leaves the context's pending
/// changes as they were, on each store.
@Suite struct StoreFailedSaveTests {
    private func codesAndNames(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.code)]))
            .map { "\($0.code)=\($0.name)" }
    }

    @Test(arguments: TestedStore.available)
    func aSaveOfARowDeletedElsewhereThrowsAndWritesNothing(store: TestedStore) throws {
        let container = try store.makeContainer(PGTrip.self)
        let writer = ModelContext(container)
        writer.insert(PGTrip(code: "X", name: "x"))
        writer.insert(PGTrip(code: "Y", name: "y"))
        try writer.save()
        let editor = ModelContext(container)
        let trips = try editor.fetch(FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.code)]))
        try #require(trips.map(\.code) == ["X", "Y"])
        let deleter = ModelContext(container)
        try deleter.delete(model: PGTrip.self, where: #Predicate { $0.code == "X" })
        try deleter.save()

        trips[0].name = "edited"
        trips[1].name = "also edited"
        editor.insert(PGTrip(code: "Z", name: "z"))
        let error = #expect(throws: SwiftDataError.self) { try editor.save() }
        #expect(error == .modelValidationFailure)
        #expect(editor.hasChanges)
        #expect(editor.insertedModelsArray.count == 1)
        #expect(editor.changedModelsArray.count == 2)
        #expect(trips.map(\.name) == ["edited", "also edited"])
        #expect(try codesAndNames(container) == ["Y=y"])
        // The failed save recorded no history: the first save and the deletion only.
        #expect(try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 2)
    }

    @Test(arguments: TestedStore.available)
    func aReadOnlyStoreRefusesEveryChangeAndKeepsThePendingChanges(store: TestedStore) throws {
        let location = try store.makeLocation()
        let writable = try store.container(PGTrip.self, at: location)
        let writer = ModelContext(writable)
        writer.insert(PGTrip(code: "A", name: "a"))
        writer.insert(PGTrip(code: "B", name: "b"))
        try writer.save()

        let readOnly = try store.container(PGTrip.self, at: location, allowsSave: false)
        let context = ModelContext(readOnly)
        let trips = try context.fetch(FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.code)]))
        #expect(trips.map(\.name) == ["a", "b"])
        trips[0].name = "changed"
        context.delete(trips[1])
        context.insert(PGTrip(code: "C", name: "c"))
        let error = #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(error == .modelValidationFailure)
        #expect(error?.description.contains("allowsSave") == true)
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 1)
        #expect(context.changedModelsArray.count == 1)
        #expect(context.deletedModelsArray.count == 1)
        #expect(trips[0].name == "changed")

        readOnly.deleteAllData()
        #expect(throws: SwiftDataError.loadIssueModelContainer) { try readOnly.erase() }
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
        #expect(try codesAndNames(readOnly) == ["A=a", "B=b"])
        #expect(try codesAndNames(writable) == ["A=a", "B=b"])
        // The read-only store reads the history, which the refused save did not add to.
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 1)
        #expect(try ModelContext(writable).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 1)
    }
}
