import Foundation
import Synchronization
import Testing

@_spi(Instrumentation) @testable import SwiftData

@Model
final class LRTag {
    @Attribute(.unique) var label: String
    var rank: Int

    init(label: String, rank: Int) {
        self.label = label
        self.rank = rank
    }
}

/// A reference a handler can set.
final class LRBox<T>: @unchecked Sendable {
    // @unchecked: used on one thread at a time by the tests.
    var value: T?
    init(_ value: T?) { self.value = value }
}

/// Cases an adversarial review of live results tried. All but the subclass and handler cases failed before their
/// fixes: writes undone by a refetch inside a handler, relationships in sort and section key paths, ties among
/// unsaved models, emptied stores, undone batch deletions, upserts by other contexts, history deleted unread.
@Suite struct ResultsObserverEdgeTests {
    @Test @MainActor func sortThroughRelationshipFollowsRelatedChanges() async throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        let home = LRList(name: "b-home")
        let work = LRList(name: "c-work")
        context.insert(home)
        context.insert(work)
        let t1 = LRTask(title: "t1")
        t1.list = home
        let t2 = LRTask(title: "t2")
        t2.list = work
        try context.save()
        let descriptor = FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\LRTask.list?.name)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(titles(observer) == ["t1", "t2"])
        home.name = "z-home"
        try await _Concurrency.Task.sleep(for: .milliseconds(100))
        let fresh = try context.fetch(descriptor).map(\.title)
        #expect(fresh == ["t2", "t1"])
        #expect(titles(observer) == fresh)
    }

    @Test @MainActor func sectionsThroughRelationshipFollowRelatedChanges() async throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        let home = LRList(name: "home")
        context.insert(home)
        let t1 = LRTask(title: "t1")
        t1.list = home
        try context.save()
        let observer = try ResultsObserver<LRTask, String>(sectionBy: \LRTask.list?.name, modelContext: context)
        #expect(observer.sections?.sectionTitles == ["home"])
        home.name = "errands"
        try await _Concurrency.Task.sleep(for: .milliseconds(100))
        #expect(observer.sections?.sectionTitles == ["errands"])
    }

    @Test @MainActor func tiesAmongUnsavedModelsFollowTheContextsOrder() async throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        let descriptor = FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.priority)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        let first = LRTask(title: "made-first")
        let second = LRTask(title: "made-second")
        context.insert(second)
        context.insert(first)
        let fresh = try context.fetch(descriptor).map(\.title)
        #expect(titles(observer) == fresh)
    }

    @Test @MainActor func undoingTheDeletionOfAnUnsavedModelPutsItWhereAFetchDoes() async throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.undoManager = UndoManager()
        let descriptor = FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.priority)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        let a = LRTask(title: "a")
        let b = LRTask(title: "b")
        context.insert(a)
        context.insert(b)
        context.processPendingChanges()
        context.delete(a)
        context.processPendingChanges()
        context.undoManager?.undo()
        let fresh = try context.fetch(descriptor).map(\.title)
        #expect(titles(observer) == fresh)
    }

    @Test @MainActor func deletingAllDataEmptiesTheResults() async throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: directory.store())
        let context = ModelContext(container)
        context.insert(LRTask(title: "a"))
        try context.save()
        let observer = try ResultsObserver(fetchDescriptor: FetchDescriptor<LRTask>(), modelContext: context)
        #expect(titles(observer) == ["a"])
        container.deleteAllData()
        try await _Concurrency.Task.sleep(for: .milliseconds(200))
        let fresh = try context.fetch(FetchDescriptor<LRTask>()).map(\.title)
        #expect(fresh == [])
        #expect(titles(observer) == fresh)
    }

    @Test func aWriteReadInsideOnChangeOutsideAnyActorIsKept() throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.insert(LRTask(title: "a", priority: 1))
        context.insert(LRTask(title: "b", priority: 2))
        try context.save()
        let descriptor = FetchDescriptor<LRTask>(
            predicate: #Predicate { $0.priority < 5 }, sortBy: [SortDescriptor(\.priority)])
        var d2 = descriptor
        d2.fetchLimit = 10  // forces a refetch
        let observer = try ResultsObserver(fetchDescriptor: d2, modelContext: context)
        #expect(titles(observer) == ["a", "b"])
        let seen = Mutex<[String]>([])
        nonisolated(unsafe) let unsafeObserver = observer
        withObservationTracking {
            _ = observer.results
        } onChange: {
            seen.withLock { $0 = titles(unsafeObserver) }
        }
        let a = try #require(observer.results.first)
        a.priority = 9
        #expect(a.priority == 9, "the write was lost")
        #expect(a.hasChanges)
        try context.save()
        let other = ModelContext(container)
        let stored = try other.fetch(FetchDescriptor<LRTask>(predicate: #Predicate { $0.title == "a" })).first?.priority
        #expect(stored == 9, "stored \(String(describing: stored))")
        let fresh = try context.fetch(d2).map(\.title)
        #expect(titles(observer) == fresh, "observer \(titles(observer)) fresh \(fresh)")
    }

    @Test @MainActor func undoingADeletionOfUnloadedRowsBringsThemBack() async throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let seed = ModelContext(container)
        seed.insert(LRTask(title: "a", priority: 1))
        seed.insert(LRTask(title: "b", priority: 2))
        try seed.save()
        let context = ModelContext(container)
        context.undoManager = UndoManager()
        var descriptor = FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.priority)])
        descriptor.fetchLimit = 1
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(titles(observer) == ["a"])
        try context.delete(model: LRTask.self, where: #Predicate { $0.title == "b" })
        #expect(titles(observer) == ["a"])
        context.processPendingChanges()
        // Another context deletes a.
        let other = ModelContext(container)
        for task in try other.fetch(FetchDescriptor<LRTask>(predicate: #Predicate { $0.title == "a" })) {
            other.delete(task)
        }
        try other.save()
        try await _Concurrency.Task.sleep(for: .milliseconds(100))
        #expect(titles(observer) == [])
        context.undoManager?.undo()
        try await _Concurrency.Task.sleep(for: .milliseconds(100))
        let fresh = try context.fetch(descriptor).map(\.title)
        #expect(fresh == ["b"])
        #expect(titles(observer) == fresh)
    }

    @Test @MainActor func anotherContextsUpsertMovesTheModelItOverwrote() async throws {
        let container = try makeInMemoryContainer(LRTag.self)
        let context = ModelContext(container)
        context.insert(LRTag(label: "x", rank: 1))
        context.insert(LRTag(label: "y", rank: 50))
        try context.save()
        let descriptor = FetchDescriptor<LRTag>(sortBy: [SortDescriptor(\.rank)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(observer.results.map(\.label) == ["x", "y"])
        let other = ModelContext(container)
        other.insert(LRTag(label: "x", rank: 99))
        try other.save()
        try await _Concurrency.Task.sleep(for: .milliseconds(100))
        let shown = observer.results.map { "\($0.label)\($0.rank)" }
        let fresh = try context.fetch(descriptor).map { "\($0.label)\($0.rank)" }
        #expect(shown == fresh)
    }

    @Test @MainActor func subclassModelsFollowChangesOfEitherEntity() async throws {
        let container = try makeInMemoryContainer(Matka.self, Tyomatka.self, Lomamatka.self)
        let context = ModelContext(container)
        let date = Date(timeIntervalSinceReferenceDate: 0)
        context.insert(Tyomatka(kohde: "b", alkupvm: date, loppupvm: date, paivaraha: 1, yritys: "Y"))
        context.insert(Lomamatka(kohde: "c", alkupvm: date, loppupvm: date, syy: .seikkailu, budjetti: 5))
        context.insert(Matka(kohde: "a", alkupvm: date, loppupvm: date))
        try context.save()
        let base = FetchDescriptor<Matka>(sortBy: [SortDescriptor(\.kohde)])
        let sub = FetchDescriptor<Tyomatka>(
            predicate: #Predicate { $0.paivaraha > 0 }, sortBy: [SortDescriptor(\.kohde)])
        let baseObserver = try ResultsObserver(fetchDescriptor: base, modelContext: context)
        let subObserver = try ResultsObserver(fetchDescriptor: sub, modelContext: context)
        let other = ModelContext(container)
        for trip in try other.fetch(FetchDescriptor<Tyomatka>()) {
            trip.kohde = "z"
            trip.paivaraha = 0
        }
        try other.save()
        try await _Concurrency.Task.sleep(for: .milliseconds(100))
        #expect(baseObserver.results.map(\.kohde) == (try context.fetch(base)).map(\.kohde))
        #expect(subObserver.results.map(\.kohde) == (try context.fetch(sub)).map(\.kohde))
        // Local
        let lomat = try context.fetch(FetchDescriptor<Lomamatka>())
        lomat.first?.kohde = "0"
        let t = Tyomatka(kohde: "m", alkupvm: date, loppupvm: date, paivaraha: 3, yritys: "Q")
        context.insert(t)
        #expect(baseObserver.results.map(\.kohde) == (try context.fetch(base)).map(\.kohde))
        #expect(subObserver.results.map(\.kohde) == (try context.fetch(sub)).map(\.kohde))
    }

    @Test @MainActor func historyDeletedBeforeItIsReadFetchesAgain() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let second = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let blocker = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: container, queue: nil
        ) { _ in
            // Another observer of the notification takes its time: the history is deleted meanwhile.
            Thread.sleep(forTimeInterval: 0.5)
        }
        defer { NotificationCenter.default.removeObserver(blocker) }
        let observer = try ResultsObserver(fetchDescriptor: FetchDescriptor<LRTask>(), modelContainer: container)
        #expect(observer.results.isEmpty)
        let other = ModelContext(second)
        other.insert(LRTask(title: "remote"))
        try other.save()
        try await _Concurrency.Task.sleep(for: .milliseconds(150))
        try other.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        try await _Concurrency.Task.sleep(for: .milliseconds(1500))
        let shown = titles(observer)
        let fresh = try observer.modelContext.fetch(FetchDescriptor<LRTask>()).map(\.title)
        #expect(fresh == ["remote"])
        #expect(shown == fresh)
    }

    @Test func anObserverReleasedByItsOwnHandlerStopsCleanly() throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        let box = LRBox(try ResultsObserver(fetchDescriptor: FetchDescriptor<LRTask>(), modelContext: context))
        let second = try ResultsObserver(fetchDescriptor: FetchDescriptor<LRTask>(), modelContext: context)
        withObservationTracking {
            _ = box.value?.results
        } onChange: {
            box.value = nil
        }
        context.insert(LRTask(title: "x"))
        #expect(box.value == nil)
        #expect(second.results.count == 1)
    }

    @Test func anObserverMadeInAnotherObserversHandlerStartsFollowing() throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        let first = try ResultsObserver(fetchDescriptor: FetchDescriptor<LRTask>(), modelContext: context)
        let made = LRBox<ResultsObserver<LRTask, Never>>(nil)
        nonisolated(unsafe) let unsafeContext = context
        withObservationTracking {
            _ = first.results
        } onChange: {
            made.value = try? ResultsObserver(fetchDescriptor: FetchDescriptor<LRTask>(), modelContext: unsafeContext)
        }
        context.insert(LRTask(title: "x"))
        #expect(made.value != nil)
    }

}
