import Foundation
import SwiftData
import Testing

/// Whether models were deleted each time a `didSave` observer looked, collected under a lock because observers
/// run on the posting thread.
private final class DeletionProbe: @unchecked Sendable {
    // @unchecked: every access to `sightings` holds `lock`; `models` is only read, and only on the thread that
    // posts, which is the test's.
    private let lock = NSLock()
    private let models: [any PersistentModel]
    private var seen: [[Bool]] = []

    init(_ models: [any PersistentModel]) { self.models = models }

    func look() {
        let deleted = models.map(\.isDeleted)
        lock.withLock { seen.append(deleted) }
    }

    var sightings: [[Bool]] { lock.withLock { seen } }
}

/// What a context does when the container's data is deleted (`deleteAllData()`, `erase()`): the models whose rows
/// are gone leave it as deleted, and then it announces the models it held.
@Suite struct InvalidateAllTests {
    @Test func didSaveObserversSeeTheInvalidatedModelsDeleted() throws {
        let container = try makeInMemoryContainer(TripTag.self, Trip.self)
        let context = ModelContext(container)
        let tags = [TripTag(label: "a"), TripTag(label: "b")]
        tags.forEach(context.insert)
        try context.save()
        let probe = DeletionProbe(tags)
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { _ in probe.look() }
        defer { NotificationCenter.default.removeObserver(observer) }

        container.deleteAllData()
        _ = try context.fetch(FetchDescriptor<TripTag>())
        #expect(probe.sightings == [[true, true]])
    }

    @Test func aContextThatHeldNoSavedModelsPostsNothing() throws {
        let container = try makeInMemoryContainer(TripTag.self, Trip.self)
        let writer = ModelContext(container)
        writer.insert(TripTag(label: "saved"))
        try writer.save()
        let context = ModelContext(container)
        context.insert(TripTag(label: "pending"))
        let notifications = ContextNotifications(of: context)

        container.deleteAllData()
        #expect(try context.fetch(FetchDescriptor<TripTag>()).map(\.label) == ["pending"])
        #expect(notifications.names.isEmpty)
    }
}
