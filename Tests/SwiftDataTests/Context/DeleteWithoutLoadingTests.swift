import Foundation
import SwiftData
import Testing

/// `delete(model:where:)` of an entity whose delete rules need no models deletes rows without loading them.
@Suite struct DeleteWithoutLoadingTests {
    /// A trip with `count` bucket-list items titled "item 0", "item 1", …; `isDone` on the even ones.
    func tripWithItems(_ count: Int) throws -> (container: ModelContainer, trip: Trip) {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: "Paris", destination: "France")
        context.insert(trip)
        trip.bucketList = (0..<count).map { index in
            let item = BucketListItem(title: "item \(index)")
            item.isDone = index % 2 == 0
            return item
        }
        try context.save()
        return (container, trip)
    }

    @Test func matchingRowsAreDeletedWithoutLoadingTheirModels() throws {
        let (container, _) = try tripWithItems(6)
        let context = ModelContext(container)
        try context.delete(model: BucketListItem.self, where: #Predicate { $0.isDone })

        // Pending: the rows are gone from every fetch, and no model was made for them.
        #expect(context.hasChanges)
        #expect(context.deletedModelsArray.isEmpty)
        let remaining = FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)])
        #expect(try context.fetch(remaining).map(\.title) == ["item 1", "item 3", "item 5"])
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 3)
        #expect(try context.fetchIdentifiers(FetchDescriptor<BucketListItem>()).count == 3)
        // Another context still sees the rows until the save.
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BucketListItem>()) == 6)

        let deletedIdentifiers = try identifiersInDidSave(of: context, under: .deletedIdentifiers) {
            try context.save()
        }
        #expect(!context.hasChanges)
        #expect(deletedIdentifiers.count == 3)
        let other = ModelContext(container)
        #expect(try other.fetch(remaining).map(\.title) == ["item 1", "item 3", "item 5"])
        // The trip's relationship lost the deleted items too.
        let trip = try #require(try other.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.bucketList.map(\.title).sorted() == ["item 1", "item 3", "item 5"])
    }

    @Test func registeredMatchesAreDeletedAsUsual() throws {
        let (container, _) = try tripWithItems(4)
        let context = ModelContext(container)
        let loaded = try context.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.title == "item 0" }))
        try context.delete(model: BucketListItem.self, where: #Predicate { $0.isDone })
        #expect(loaded.first?.isDeleted == true)
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BucketListItem>()) == 2)
    }

    @Test func aDeletedRowLoadedLaterIsAPendingDeletionOfItsModel() throws {
        let (container, _) = try tripWithItems(4)
        let context = ModelContext(container)
        try context.delete(model: BucketListItem.self, where: #Predicate { $0.isDone })
        // Loading the trip's items reads the deleted rows: their models come back deleted and are left out.
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.bucketList.map(\.title).sorted() == ["item 1", "item 3"])
        #expect(context.deletedModelsArray.count == 2)
        #expect(context.deletedModelsArray.allSatisfy { $0.isDeleted })
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BucketListItem>()) == 2)
    }

    @Test func rollbackAndUndoBringTheRowsBack() throws {
        let (container, _) = try tripWithItems(4)
        let context = ModelContext(container)
        try context.delete(model: BucketListItem.self, where: #Predicate { $0.isDone })
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 4)

        context.undoManager = UndoManager()
        try context.delete(model: BucketListItem.self, where: #Predicate { $0.isDone })
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 2)
        context.undoManager?.undo()
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 4)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BucketListItem>()) == 4)
    }

    /// `Trip` cascades to its items, so its models are loaded to apply the rule, as before.
    @Test func entitiesWithCascadeRulesLoadTheirModels() throws {
        let (container, _) = try tripWithItems(3)
        let context = ModelContext(container)
        try context.delete(model: Trip.self)
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BucketListItem>()) == 0)
    }
}
