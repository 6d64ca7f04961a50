import Foundation
import SwiftData
import Testing

/// When automatic undo groups (`groupsByEvent`) close, and what `undo()` and `redo()` do with a group left open.
@Suite struct UndoGroupingTests {
    final class Counter { var value = 0 }

    /// Adds to a counter and registers the undo, as an app's model change would.
    func add(_ amount: Int, to counter: Counter, in undoManager: UndoManager) {
        counter.value += amount
        undoManager.registerUndo(withTarget: counter) { [unowned undoManager] counter in
            self.add(-amount, to: counter, in: undoManager)
        }
    }

    @Test func undoClosesTheAutomaticGroupAfterANestedGroupClosed() {
        let undoManager = UndoManager()
        let counter = Counter()
        add(1, to: counter, in: undoManager)
        undoManager.beginUndoGrouping()
        add(2, to: counter, in: undoManager)
        undoManager.endUndoGrouping()
        #expect(undoManager.groupingLevel == 1)
        undoManager.undo()
        #expect(counter.value == 0)
        #expect(undoManager.groupingLevel == 0)
        undoManager.redo()
        #expect(counter.value == 3)
    }

    @Test func undoClosesATopLevelGroupOpenedByHand() {
        let undoManager = UndoManager()
        let counter = Counter()
        undoManager.beginUndoGrouping()
        add(5, to: counter, in: undoManager)
        undoManager.undo()
        #expect(counter.value == 0)
        #expect(undoManager.canRedo)
    }

    @Test func redoAfterANewChangeClosesItsGroupAndHasNothingToRedo() {
        let undoManager = UndoManager()
        let counter = Counter()
        add(1, to: counter, in: undoManager)
        undoManager.undo()
        #expect(undoManager.canRedo)
        add(7, to: counter, in: undoManager)
        undoManager.redo()
        #expect(counter.value == 7)
        #expect(!undoManager.canRedo)
        undoManager.undo()
        #expect(counter.value == 0)
    }

    /// Foundation raises when `undo()` meets a group nested in another; so does this one, by stopping the program.
    @Test func undoWithANestedGroupOpenStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let undoManager = UndoManager()
            final class Target {}
            let target = Target()
            undoManager.beginUndoGrouping()
            undoManager.beginUndoGrouping()
            undoManager.registerUndo(withTarget: target) { _ in }
            undoManager.undo()
        }
    }

    @MainActor
    @Test func theEndOfAMainActorTurnClosesTheAutomaticGroup() async throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let undoManager = UndoManager()
        context.undoManager = undoManager
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        try context.save()
        undoManager.removeAllActions()

        trip.name = "B"
        await _Concurrency.Task.yield()
        #expect(undoManager.groupingLevel == 0)
        trip.name = "C"
        undoManager.undo()
        #expect(trip.name == "B")
        undoManager.undo()
        #expect(trip.name == "A")
    }

    @Test func eachModelActorJobClosesTheAutomaticGroup() async throws {
        let actor = UndoingActor(modelContainer: try makeInMemoryContainer(Trip.self))
        try await actor.start()
        // Each change from a task of its own: one task's consecutive calls into the actor may run as one job (the
        // run time keeps the task on the actor's executor between them), and so as one undo group.
        await _Concurrency.Task { await actor.rename(to: "B") }.value
        await _Concurrency.Task { await actor.rename(to: "C") }.value
        #expect(await actor.undoOnce() == "B")
        #expect(await actor.undoOnce() == "A")
    }
}

@ModelActor
actor UndoingActor {
    var trip: Trip?

    func start() throws {
        let trip = Trip(name: "A", destination: "X")
        modelContext.insert(trip)
        try modelContext.save()
        self.trip = trip
        modelContext.undoManager = UndoManager()
    }

    func rename(to name: String) { trip?.name = name }

    func undoOnce() -> String? {
        modelContext.undoManager?.undo()
        return trip?.name
    }
}
