import Foundation
import SwiftData
import Testing

@Suite struct UndoTests {
    func makeContext() throws -> (ModelContext, UndoManager) {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let undoManager = UndoManager()
        context.undoManager = undoManager
        return (context, undoManager)
    }

    @Test func attributeChangesUndoAndRedoGroupByGroup() throws {
        let (context, undoManager) = try makeContext()
        let trip = Trip(name: "A", destination: "X", budget: 1)
        context.insert(trip)
        try context.save()
        context.processPendingChanges()
        undoManager.removeAllActions()

        trip.name = "B"
        trip.name = "C"
        context.processPendingChanges()
        trip.budget = 2
        #expect(undoManager.canUndo)
        undoManager.undo()
        #expect(trip.budget == 1)
        #expect(trip.name == "C")
        undoManager.undo()
        #expect(trip.name == "A")
        #expect(!undoManager.canUndo)
        #expect(undoManager.canRedo)
        undoManager.redo()
        #expect(trip.name == "C")
        undoManager.redo()
        #expect(trip.budget == 2)
    }

    @Test func insertAndDeleteAreUndoable() throws {
        let (context, undoManager) = try makeContext()
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        context.processPendingChanges()
        undoManager.undo()
        #expect(context.insertedModelsArray.isEmpty)
        undoManager.redo()
        #expect(context.insertedModelsArray.count == 1)
        try context.save()
        context.processPendingChanges()

        context.delete(trip)
        context.processPendingChanges()
        #expect(trip.isDeleted)
        undoManager.undo()
        #expect(!trip.isDeleted)
        #expect(!context.hasChanges)
        undoManager.redo()
        #expect(trip.isDeleted)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func relationshipChangesUndoOnBothSides() throws {
        let (context, undoManager) = try makeContext()
        let trip = Trip(name: "A", destination: "X")
        let other = Trip(name: "B", destination: "Y")
        let item = BucketListItem(title: "Walk")
        context.insert(trip)
        context.insert(other)
        context.insert(item)
        item.trip = trip
        context.processPendingChanges()
        item.trip = other
        #expect(trip.bucketList.isEmpty)
        undoManager.undo()
        #expect(item.trip === trip)
        #expect(trip.bucketList.first === item)
        #expect(other.bucketList.isEmpty)
        undoManager.redo()
        #expect(other.bucketList.first === item)
        #expect(trip.bucketList.isEmpty)
    }

    @Test func rollbackEmptiesTheUndoStack() throws {
        let (context, undoManager) = try makeContext()
        context.insert(Trip(name: "A", destination: "X"))
        context.rollback()
        #expect(!undoManager.canUndo)
        #expect(!undoManager.canRedo)
    }

    @Test func undoManagerGroupsAndNamesActions() {
        final class Counter { var value = 0 }
        let counter = Counter()
        let undoManager = UndoManager()
        func add(_ amount: Int) {
            counter.value += amount
            undoManager.registerUndo(withTarget: counter) { _ in add(-amount) }
        }
        undoManager.groupsByEvent = false
        undoManager.beginUndoGrouping()
        add(1)
        add(2)
        undoManager.setActionName("Add")
        undoManager.endUndoGrouping()
        #expect(undoManager.undoActionName == "Add")
        undoManager.undo()
        #expect(counter.value == 0)
        #expect(undoManager.redoActionName == "Add")
        undoManager.redo()
        #expect(counter.value == 3)
        undoManager.levelsOfUndo = 1
        undoManager.beginUndoGrouping()
        add(10)
        undoManager.endUndoGrouping()
        undoManager.undo()
        #expect(!undoManager.canUndo)
        #expect(counter.value == 3)
    }
}
