import Foundation
import Synchronization
import Testing

@_spi(Instrumentation) @testable import SwiftData

@Model
final class LROwner {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \LRPet.owner) var pets: [LRPet] = []
    init(name: String) { self.name = name }
}

@Model
final class LRPet {
    var name: String
    var owner: LROwner?
    init(name: String) { self.name = name }
}

@Model
final class LRKeeper {
    var name: String
    @Relationship(deleteRule: .nullify, inverse: \LRToy.keeper) var toys: [LRToy] = []
    init(name: String) { self.name = name }
}

@Model
final class LRToy {
    var name: String
    var keeper: LRKeeper?
    init(name: String) { self.name = name }
}

let lrReleasedCount = Atomic<Int>(0)

@Model
final class LRProbe {
    var title: String
    init(title: String) { self.title = title }
    deinit {
        lrReleasedCount.add(1, ordering: .relaxed)
    }
}

@ModelActor actor LRWorker {
    var observer: ResultsObserver<LRTask, Never>?
    func start() throws {
        observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.title)]), modelContext: modelContext)
    }
    func insert(_ titles: [String]) throws {
        for title in titles { modelContext.insert(LRTask(title: title)) }
        try modelContext.save()
    }
    func compare() throws -> (shown: [String], fresh: [String], stats: String) {
        let shown = observer!.results.map(\.title)
        let fresh = try modelContext.fetch(FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        return (shown, fresh, "\(observer!.statistics)")
    }
}

@Model
final class LRCat {
    @Attribute(.unique) var name: String
    var rank: Int
    init(name: String, rank: Int) {
        self.name = name
        self.rank = rank
    }
}

@Model
final class LRItem {
    var title: String
    var cat: LRCat?
    init(title: String) { self.title = title }
}

/// Cases a second adversarial review of live results tried: what a context's own save does beyond its pending
/// changes (cascades, links the store clears, upserts), deletions elsewhere the observer did not hear of, retries
/// after a failed fetch, large changes, emptied history, many own saves, and models kept alive.
@Suite struct ResultsObserverSaveEffectsTests {
    @Test @MainActor func anOwnUpsertOfARelatedModelReachesTheResults() throws {
        let container = try makeInMemoryContainer(LRCat.self, LRItem.self)
        let context = ModelContext(container)
        let cat = LRCat(name: "x", rank: 0)
        context.insert(cat)
        let item = LRItem(title: "i")
        context.insert(item)
        item.cat = cat
        try context.save()
        let descriptor = FetchDescriptor<LRItem>(predicate: #Predicate { $0.cat?.rank == 5 })
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(observer.results.isEmpty)
        context.insert(LRCat(name: "x", rank: 5))
        #expect(observer.results.map(\.title) == (try context.fetch(descriptor)).map(\.title))
        try context.save()
        let fresh = try context.fetch(descriptor).map(\.title)
        #expect(observer.results.map(\.title) == fresh, "fresh \(fresh), cat rank \(cat.rank)")
    }

    @Test @MainActor func anObserverOnACustomActorFollowsSavesOfOthers() async throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let worker = LRWorker(modelContainer: container)
        let writer = LRWorker(modelContainer: container)
        try await worker.start()
        container.mainContext.autosaveEnabled = true
        async let background: Void = {
            for round in 0..<50 { try await writer.insert(["w\(round)"]) }
        }()
        for round in 0..<50 {
            container.mainContext.insert(LRTask(title: "m\(round)"))
            if round % 3 == 0 { try await worker.insert(["o\(round)"]) }
            await _Concurrency.Task.yield()
        }
        try await background
        try container.mainContext.save()
        var last: (shown: [String], fresh: [String], stats: String) = ([], [], "")
        for _ in 0..<100 {
            last = try await worker.compare()
            if last.shown == last.fresh && last.fresh.count == 117 { break }
            try await _Concurrency.Task.sleep(for: .milliseconds(20))
        }
        #expect(last.shown == last.fresh)
    }

    @Test @MainActor func cascadeOfOwnSaveLeavesTheResults() throws {
        let container = try makeInMemoryContainer(LROwner.self, LRPet.self)
        let context = ModelContext(container)
        let owner = LROwner(name: "o")
        context.insert(owner)
        for name in ["a", "b"] {
            let pet = LRPet(name: name)
            context.insert(pet)
            pet.owner = owner
        }
        try context.save()
        let descriptor = FetchDescriptor<LRPet>(sortBy: [SortDescriptor(\.name)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(observer.results.count == 2)
        context.delete(owner)
        try context.save()
        let fresh = try context.fetch(descriptor).map(\.name)
        #expect(fresh == [])
        #expect(observer.results.map(\.name) == fresh)
        #expect(observer.results.allSatisfy { !$0.isDeleted })
    }

    @Test @MainActor func linksTheStoreClearsAtOwnSaveReachTheResults() throws {
        let container = try makeInMemoryContainer(LRKeeper.self, LRToy.self)
        do {
            let seed = ModelContext(container)
            let keeper = LRKeeper(name: "k")
            seed.insert(keeper)
            for name in ["a", "b"] {
                let toy = LRToy(name: name)
                seed.insert(toy)
                toy.keeper = keeper
            }
            try seed.save()
        }
        let context = ModelContext(container)
        let descriptor = FetchDescriptor<LRToy>(
            predicate: #Predicate { $0.keeper == nil }, sortBy: [SortDescriptor(\.name)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(observer.results.isEmpty)
        try context.delete(model: LRKeeper.self)
        #expect(observer.results.map(\.name) == (try context.fetch(descriptor)).map(\.name))
        try context.save()
        let fresh = try context.fetch(descriptor).map(\.name)
        #expect(observer.results.map(\.name) == fresh, "fresh \(fresh)")
    }

    @Test @MainActor func aModelDeletedElsewhereBeforeTheObserverStaysOut() throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.insert(LRTask(title: "a"))
        context.insert(LRTask(title: "b"))
        try context.save()
        let descriptor = FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.title)])
        let a = try #require(try context.fetch(descriptor).first)
        a.notes = "edited"
        let other = ModelContext(container)
        let theirs = try #require(
            try other.fetch(FetchDescriptor<LRTask>(predicate: #Predicate { $0.title == "a" })).first)
        other.delete(theirs)
        try other.save()
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(titles(observer) == (try context.fetch(descriptor)).map(\.title))
        a.title = "c"
        let fresh = try context.fetch(descriptor).map(\.title)
        #expect(titles(observer) == fresh, "fresh \(fresh)")
    }

    @Test @MainActor func aDeletionElsewhereSurvivesASortChange() throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.insert(LRTask(title: "a"))
        context.insert(LRTask(title: "b"))
        try context.save()
        let descriptor = FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.title)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        let a = try #require(try context.fetch(descriptor).first)
        a.notes = "edited"
        #expect(titles(observer) == ["a", "b"])
        let other = ModelContext(container)
        let theirs = try #require(
            try other.fetch(FetchDescriptor<LRTask>(predicate: #Predicate { $0.title == "a" })).first)
        other.delete(theirs)
        try other.save()
        observer.sortBy = [SortDescriptor(\.title, order: .reverse)]
        a.title = "c"
        let fresh = try context.fetch(observer.fetchDescriptor).map(\.title)
        #expect(titles(observer) == fresh, "fresh \(fresh)")
    }

    @Test(arguments: [1_000]) @MainActor func aLargeInsertFetchesAgain(count: Int) throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        var random = SystemRandomNumberGenerator()
        let words = (0..<count).map { _ in String(UInt64.random(in: 0..<UInt64.max, using: &random), radix: 36) }
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.title)]), modelContext: context)
        for word in words { context.insert(LRTask(title: word)) }
        let shown = observer.results.count
        #expect(shown == count)
        #expect(observer.statistics.refetches == 1, "more than 256 models changed: the docs say it fetches again")
    }

    @Test @MainActor func anEmptiedHistoryCountsAnUnobservedCommit() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let other = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let theirs = ModelContext(other)
        theirs.insert(LRTask(title: "t"))
        try theirs.save()
        try theirs.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let observer = try HistoryObserver(observedModels: [LRTask.self], modelContainer: container)
        theirs.insert(LRNote(text: "not observed"))
        try theirs.save()
        try await _Concurrency.Task.sleep(for: .milliseconds(1500))
        #expect(observer.eventCounter == 0)
    }

    @Test @MainActor func aFailedRefetchIsRetriedByTheNextChange() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let context = ModelContext(container)
        for (title, priority) in [("a", 1), ("b", 5)] { context.insert(LRTask(title: title, priority: priority)) }
        try context.save()
        let observer = try ResultsObserver(
            filterBy: #Predicate<LRTask> { $0.priority >= 5 }, sortBy: [SortDescriptor(\.title)], modelContext: context)
        #expect(titles(observer) == ["b"])
        let table = Schema.Entity.of(LRTask.self).tableName
        let connection = try SQLiteConnection(path: url.path, readOnly: false, log: SQLiteStatementLog())
        let column = "priority"
        // A row whose stored value does not fit: fetches fail until it is put right.
        try connection.execute("UPDATE \"\(table)\" SET \"\(column)\" = 'bad' WHERE \"title\" = 'a'")
        observer.filterBy = nil
        try connection.execute("UPDATE \"\(table)\" SET \"\(column)\" = 1 WHERE \"title\" = 'a'")
        context.insert(LRTask(title: "c"))
        let fresh = try context.fetch(observer.fetchDescriptor).map(\.title)
        #expect(titles(observer) == fresh, "fresh \(fresh)")
        #expect(observer.fetchError == nil)
    }

    @Test @MainActor func manyOwnSavesAreNotCountedAsRemote() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let other = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let observer = try HistoryObserver(observedModels: [LRTask.self], modelContainer: container)
        let own = ModelContext(container)
        do {
            for index in 0..<300 {
                own.insert(LRTask(title: "\(index)"))
                try? own.save()
            }
        }
        let theirs = ModelContext(other)
        theirs.insert(LRNote(text: "not observed"))
        try theirs.save()
        try await _Concurrency.Task.sleep(for: .milliseconds(2000))
        #expect(observer.eventCounter == 0)
    }

    @Test @MainActor func anImportInBatchesReleasesSavedModels() throws {
        let container = try makeInMemoryContainer(LRProbe.self)
        func importModels(_ context: ModelContext) throws -> Int {
            let before = lrReleasedCount.load(ordering: .relaxed)
            for index in 0..<20_000 {
                context.insert(LRProbe(title: "\(index)"))
                if index % 1_000 == 999 { try context.save() }
            }
            return lrReleasedCount.load(ordering: .relaxed) - before
        }
        let plain = try importModels(ModelContext(container))
        let context = ModelContext(container)
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<LRProbe>(predicate: #Predicate { $0.title == "none" }),
            modelContext: context)
        let observed = try importModels(context)
        #expect(observed >= plain / 2)
        _ = observer.results
    }

    @Test @MainActor func undoAndRedoKeepTheResultsCurrent() throws {
        let container = try makeInMemoryContainer(LRTask.self, LRList.self, LRNote.self)
        let context = ModelContext(container)
        context.undoManager = UndoManager()
        let list = LRList(name: "A")
        context.insert(list)
        for title in ["x", "y"] { context.insert(LRTask(title: title)) }
        try context.save()
        let descriptor = FetchDescriptor<LRTask>(
            predicate: #Predicate { $0.list?.name == "A" }, sortBy: [SortDescriptor(\.title)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        let tasks = try context.fetch(FetchDescriptor<LRTask>(sortBy: [SortDescriptor(\.title)]))
        func check(_ label: String) throws {
            let fresh = try context.fetch(descriptor).map(\.title)
            #expect(titles(observer) == fresh, "\(label): fresh \(fresh)")
        }
        tasks[0].list = list
        context.processPendingChanges()
        try check("linked")
        list.tasks.append(tasks[1])
        context.processPendingChanges()
        try check("appended")
        context.undoManager?.undo()
        try check("undo append")
        context.undoManager?.undo()
        try check("undo link")
        context.undoManager?.redo()
        try check("redo link")
        try context.save()
        try check("saved")
        context.delete(tasks[0])
        context.processPendingChanges()
        try check("deleted")
        context.undoManager?.undo()
        try check("undo delete")
        list.name = "B"
        context.processPendingChanges()
        try check("renamed")
        context.undoManager?.undo()
        try check("undo rename")
    }

}
