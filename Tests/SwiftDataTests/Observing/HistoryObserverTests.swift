import Foundation
import Testing

@testable import SwiftData

/// `HistoryObserver`: its event counter goes up when another container or process commits changes of the observed
/// models by the observed authors, and it resumes from the tokens it is given.
@Suite struct HistoryObserverTests {
    /// A second container on the same file: its saves are remote changes for the first.
    private func twoContainers() throws -> (TemporaryDirectory, ModelContainer, ModelContainer) {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let first = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let second = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        return (directory, first, second)
    }

    @Test @MainActor func anotherContainersCommitIsCounted() async throws {
        let (_, container, other) = try twoContainers()
        let observer = try HistoryObserver(modelContainer: container)
        #expect(observer.eventCounter == 0)
        #expect(observer.observedModels.isEmpty && observer.authors.isEmpty)
        let counter = ChangeCounter { _ = observer.eventCounter }

        let context = ModelContext(other)
        context.insert(LRTask(title: "there"))
        try context.save()
        #expect(await eventually { observer.eventCounter == 1 })
        #expect(counter.count == 1)

        // The container's own saves are not remote changes.
        let own = ModelContext(container)
        own.insert(LRTask(title: "here"))
        try own.save()
        try await _Concurrency.Task.sleep(for: .milliseconds(300))
        #expect(observer.eventCounter == 1)

        // The tokens say where the observer is: at the other container's transaction.
        let history = try own.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let token = try #require(observer.historyTokens.values.first as? DefaultHistoryToken)
        #expect(token == history.first?.token)
    }

    @Test @MainActor func onlyTheObservedModelsAndAuthorsCount() async throws {
        let (_, container, other) = try twoContainers()
        let tasks = try HistoryObserver(observedModels: [LRTask.self], modelContainer: container)
        let notes = try HistoryObserver(observedModels: [LRNote.self], modelContainer: container)
        let byImporter = try HistoryObserver(authors: ["importer"], modelContainer: container)
        let everything = try HistoryObserver(modelContainer: container)

        let context = ModelContext(other)
        context.insert(LRTask(title: "a task"))
        try context.save()
        context.author = "importer"
        context.insert(LRNote(text: "a note"))
        try context.save()

        #expect(await eventually { everything.eventCounter >= 1 && notes.eventCounter == 1 })
        #expect(await eventually { tasks.eventCounter == 1 && byImporter.eventCounter == 1 })
        // Both transactions may arrive with one notification.
        #expect((1...2).contains(everything.eventCounter))
    }

    @Test @MainActor func givenTokensResumeFromThem() async throws {
        let (_, container, other) = try twoContainers()
        let context = ModelContext(other)
        context.insert(LRTask(title: "before"))
        try context.save()
        let start = try #require(
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)
        let storeIdentifier = try #require(container.stores.first?.identifier)
        context.insert(LRNote(text: "after the token"))
        try context.save()
        // Let the notifications of these saves pass before the observers start.
        try await _Concurrency.Task.sleep(for: .milliseconds(300))

        // One resumes after the first save, and so sees the note; the other starts now, and sees none.
        let resumed = try HistoryObserver(
            historyTokens: [storeIdentifier: start], observedModels: [LRNote.self], modelContainer: container)
        let fromNow = try HistoryObserver(observedModels: [LRNote.self], modelContainer: container)
        let everything = try HistoryObserver(modelContainer: container)
        context.insert(LRTask(title: "later"))
        try context.save()
        #expect(await eventually { everything.eventCounter == 1 })
        #expect(await eventually { resumed.eventCounter == 1 })
        #expect(fromNow.eventCounter == 0)
        let newest = try #require(resumed.historyTokens[storeIdentifier] as? DefaultHistoryToken)
        #expect(newest > start)
    }

    @Test func anObserverOutsideAnyActorCountsOnTheNotifyingThread() async throws {
        let (_, container, other) = try twoContainers()
        let observer = try HistoryObserver(modelContainer: container)
        let context = ModelContext(other)
        context.insert(LRTask(title: "there"))
        try context.save()
        for _ in 0..<400 where observer.eventCounter == 0 {
            try await _Concurrency.Task.sleep(for: .milliseconds(25))
        }
        #expect(observer.eventCounter == 1)
    }

    @Test @MainActor func anotherProcesssCommitsAreCounted() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Tally.self, at: url)
        let observer = try HistoryObserver(observedModels: [Tally.self], modelContainer: container)

        let process = try runStoreWriter(at: url, writer: "there", count: 2)
        #expect(process.terminationStatus == 0)
        #expect(await eventually { observer.eventCounter >= 1 })
        let history = try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(await eventually { observer.historyTokens.values.first as? DefaultHistoryToken == history.last?.token })
    }

    @Test @MainActor func theContainersOwnSavesAreNotCounted() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let other = try makeContainer(LRTask.self, LRList.self, LRNote.self, at: url)
        let observer = try HistoryObserver(observedModels: [LRTask.self], modelContainer: container)
        let own = ModelContext(container)
        own.insert(LRTask(title: "own"))
        try own.save()
        let theirs = ModelContext(other)
        theirs.insert(LRNote(text: "not observed"))
        try theirs.save()
        try await _Concurrency.Task.sleep(for: .milliseconds(1500))
        // Only a Note came from elsewhere: nothing observed changed remotely.
        #expect(observer.eventCounter == 0)
    }
}
