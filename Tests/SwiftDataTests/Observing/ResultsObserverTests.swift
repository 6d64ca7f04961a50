import Foundation
import Synchronization
import Testing

@_spi(Instrumentation) @testable import SwiftData

/// `ResultsObserver`: results that follow the context's own changes, other contexts' saves and other processes'
/// commits, updated in place where the changed models tell and fetched again otherwise.
@Suite struct ResultsObserverTests {
    static let open = #Predicate<LRTask> { !$0.isDone }
    static let byPriority = [SortDescriptor(\LRTask.priority), SortDescriptor(\LRTask.title)]

    @MainActor private func seeded() throws -> (ModelContainer, ModelContext) {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.insert(LRTask(title: "b", priority: 2))
        context.insert(LRTask(title: "a", priority: 1))
        context.insert(LRTask(title: "done", isDone: true, priority: 0))
        try context.save()
        return (container, context)
    }

    @Test @MainActor func firstResultsAreTheFetchsResults() throws {
        let (_, context) = try seeded()
        let observer = try ResultsObserver(filterBy: Self.open, sortBy: Self.byPriority, modelContext: context)
        #expect(titles(observer) == ["a", "b"])
        #expect(observer.sections == nil)
        #expect(observer.filterBy != nil)
        #expect(observer.sortBy.count == 2)
        #expect(observer.fetchDescriptor.sortBy.count == 2)
    }

    @Test @MainActor func localInsertsChangesAndDeletesMoveModelsWithoutFetching() async throws {
        let (_, context) = try seeded()
        let observer = try ResultsObserver(filterBy: Self.open, sortBy: Self.byPriority, modelContext: context)
        let counter = ChangeCounter { _ = observer.results }

        let c = LRTask(title: "c", priority: 0)
        context.insert(c)
        // The update runs on the observer's actor after this work: Observation tells of it then.
        #expect(await eventually { counter.count == 1 })
        #expect(titles(observer) == ["c", "a", "b"])

        counter.rearm()
        c.priority = 5
        #expect(await eventually { counter.count == 2 })
        #expect(titles(observer) == ["a", "b", "c"])

        c.isDone = true
        #expect(titles(observer) == ["a", "b"])
        let a = try #require(observer.results.first)
        context.delete(a)
        #expect(titles(observer) == ["b"])
        #expect(observer.statistics.refetches == 0)
        #expect(observer.statistics.updatesInPlace >= 3)
    }

    @Test @MainActor func aChangeNoPredicateOrSortReadsIsIgnored() async throws {
        let (_, context) = try seeded()
        let observer = try ResultsObserver(filterBy: Self.open, sortBy: Self.byPriority, modelContext: context)
        let counter = ChangeCounter { _ = observer.results }
        for task in observer.results { task.notes = "edited" }
        context.insert(LRNote(text: "another entity"))
        try context.save()
        await _Concurrency.Task.yield()
        #expect(observer.statistics.changesIgnored >= 2)
        #expect(observer.statistics.refetches == 0)
        #expect(observer.statistics.updatesInPlace == 0)
        #expect(counter.count == 0)
        #expect(titles(observer) == ["a", "b"])
    }

    @Test @MainActor func anotherContextsSaveReachesTheResults() async throws {
        let (container, context) = try seeded()
        let observer = try ResultsObserver(filterBy: Self.open, sortBy: Self.byPriority, modelContext: context)
        let counter = ChangeCounter { _ = observer.results }

        let other = ModelContext(container)
        other.insert(LRTask(title: "z", priority: 9))
        let b = try #require(try other.fetch(FetchDescriptor<LRTask>(predicate: #Predicate { $0.title == "b" })).first)
        b.priority = -1
        try other.save()

        #expect(await eventually { counter.count == 1 })
        #expect(titles(observer) == ["b", "a", "z"])
        // The model the observer shows took the saved value.
        #expect(observer.results.first?.priority == -1)
        #expect(observer.statistics.refetches == 0)
    }

    @Test @MainActor func savesThatCannotChangeTheResultsAreNotFetched() async throws {
        let (container, context) = try seeded()
        let observer = try ResultsObserver(filterBy: Self.open, sortBy: Self.byPriority, modelContext: context)
        let shown = observer.results.first
        let other = ModelContext(container)
        for task in try other.fetch(FetchDescriptor<LRTask>()) { task.notes = "saved elsewhere" }
        other.insert(LRNote(text: "another entity"))
        try other.save()
        #expect(await eventually { shown?.notes == "saved elsewhere" })
        #expect(observer.statistics.savesIgnored == 1)
        #expect(observer.statistics.refetches == 0)
        #expect(observer.statistics.updatesInPlace == 0)
        #expect(titles(observer) == ["a", "b"])
    }

    @Test @MainActor func aLimitedFetchIsFetchedAgain() async throws {
        let (_, context) = try seeded()
        var descriptor = FetchDescriptor<LRTask>(predicate: Self.open, sortBy: Self.byPriority)
        descriptor.fetchLimit = 1
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(titles(observer) == ["a"])
        try context.delete(model: LRTask.self, where: #Predicate { $0.title == "a" })
        #expect(titles(observer) == ["b"])
        #expect(observer.statistics.refetches >= 1)
    }

    @Test @MainActor func aChangeReachingTheResultsThroughARelationshipFetchesAgain() async throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        let home = LRList(name: "home")
        let work = LRList(name: "work")
        context.insert(home)
        context.insert(work)
        let dishes = LRTask(title: "dishes")
        dishes.list = home
        let report = LRTask(title: "report")
        report.list = work
        try context.save()
        let observer = try ResultsObserver(
            filterBy: #Predicate<LRTask> { $0.list?.name == "home" }, sortBy: [SortDescriptor(\.title)],
            modelContext: context)
        #expect(titles(observer) == ["dishes"])

        let other = ModelContext(container)
        let otherWork = try #require(
            try other.fetch(FetchDescriptor<LRList>(predicate: #Predicate { $0.name == "work" })).first)
        otherWork.name = "home"
        try other.save()
        #expect(await eventually { titles(observer) == ["dishes", "report"] })
        #expect(observer.statistics.refetches >= 1)
    }

    @Test @MainActor func changingTheFilterOrSortFetchesAtOnce() throws {
        let (_, context) = try seeded()
        let observer = try ResultsObserver(filterBy: Self.open, sortBy: Self.byPriority, modelContext: context)
        let counter = ChangeCounter { _ = observer.filterBy }
        observer.filterBy = nil
        #expect(counter.count == 1)
        #expect(titles(observer) == ["done", "a", "b"])
        observer.sortBy = [SortDescriptor(\.title, order: .reverse)]
        #expect(titles(observer) == ["done", "b", "a"])
        #expect(observer.fetchDescriptor.predicate == nil)
    }

    @Test @MainActor func sectionsGroupByTheKeyPathInItsOrder() async throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.insert(LRTask(title: "t1", category: "work"))
        context.insert(LRTask(title: "t2", category: "home"))
        context.insert(LRTask(title: "t3", category: "work"))
        try context.save()
        let observer = try ResultsObserver<LRTask, String>(
            sortBy: [SortDescriptor(\.title)], sectionBy: \.category, modelContext: context)
        var sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["home", "work"])
        #expect(sections[sectionTitle: "work"]?.map(\.title) == ["t1", "t3"])
        #expect(sections[sectionTitle: "none"] == nil)
        #expect(sections.first?.id == "home")
        #expect(observer.sortBy.first?.keyPath == \LRTask.category)

        let counter = ChangeCounter { _ = observer.sections }
        let t1 = try #require(sections[sectionTitle: "work"]?.first)
        t1.category = "errands"
        #expect(await eventually { counter.count == 1 })
        sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["errands", "home", "work"])
        #expect(sections.map(\.count) == [1, 1, 1])

        // Changing the sort keeps the section key path first.
        observer.sortBy = [SortDescriptor(\.title, order: .reverse)]
        #expect(observer.sortBy.first?.keyPath == \LRTask.category)
    }

    @Test @MainActor func optionalSectionKeysWithoutValueShareTheEmptyTitle() throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.insert(LRTask(title: "a", group: nil))
        context.insert(LRTask(title: "b", group: "g"))
        let observer = try ResultsObserver<LRTask, String>(sectionBy: \.group, modelContext: context)
        let sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["", "g"])
        #expect(sections[sectionTitle: ""]?.map(\.title) == ["a"])
    }

    @Test @MainActor func anObserverOfAContainerHasAContextOfItsOwn() async throws {
        let (container, context) = try seeded()
        let observer = try ResultsObserver(
            filterBy: Self.open, sortBy: Self.byPriority, modelContainer: container)
        #expect(observer.modelContext !== context)
        context.insert(LRTask(title: "0", priority: -5))
        // Not saved: another context's pending changes are not the observer's.
        #expect(titles(observer) == ["a", "b"])
        try context.save()
        #expect(await eventually { titles(observer) == ["0", "a", "b"] })
    }

    @Test @MainActor func aReleasedObserverStopsFollowing() async throws {
        let (container, context) = try seeded()
        weak var released: ResultsObserver<LRTask, Never>?
        do {
            let observer = try ResultsObserver(filterBy: Self.open, modelContext: context)
            released = observer
            #expect(observer.results.count == 2)
        }
        #expect(released == nil)
        // (The process-wide count of live observers is not checked here: tests running beside this one make and
        // release observers of their own.)
        // Saves after it went reach no one, and break nothing; the context's next save drops its entry (its next
        // change does too, but only while another observer lives somewhere in the process, as other tests' may).
        let other = ModelContext(container)
        other.insert(LRTask(title: "later"))
        try other.save()
        context.insert(LRTask(title: "local"))
        #expect(try context.fetchCount(FetchDescriptor<LRTask>()) == 5)
        try context.save()
        #expect(context.localChangeObservers.isEmpty)
    }

    @Test func anObserverOutsideAnyActorUpdatesWhenRead() throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.insert(LRTask(title: "a"))
        let observer = try ResultsObserver(filterBy: Self.open, modelContext: context)
        let counter = ChangeCounter { _ = observer.results }
        context.insert(LRTask(title: "b"))
        // Told at once, on the thread that changed the context.
        #expect(counter.count == 1)
        #expect(Set(titles(observer)) == ["a", "b"])
    }

    @Test @MainActor func anotherProcesssCommitsReachTheResults() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Tally.self, at: url)
        let observer = try ResultsObserver(
            filterBy: #Predicate<Tally> { $0.writer == "there" }, sortBy: [SortDescriptor(\.number)],
            modelContainer: container)
        #expect(observer.results.isEmpty)
        let counter = ChangeCounter { _ = observer.results }

        let process = try runStoreWriter(at: url, writer: "there", count: 3)
        #expect(process.terminationStatus == 0)

        #expect(await eventually { counter.count >= 1 })
        #expect(await eventually { observer.results.map(\.number) == [0, 1, 2] })
        #expect(observer.statistics.refetches == 0)
    }
}
