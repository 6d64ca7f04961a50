import Foundation
import SwiftData
import Testing

/// The `willSave` and `didSave` notifications one context posted, collected under a lock because they arrive on
/// the posting thread.
final class ContextNotifications: @unchecked Sendable {
    // @unchecked: every access to `entries` holds `lock`.
    private let lock = NSLock()
    private var entries: [(name: Notification.Name, userInfo: [AnyHashable: Any]?)] = []
    private var observers: [any NSObjectProtocol] = []

    init(of context: ModelContext) {
        observers = [ModelContext.willSave, ModelContext.didSave].map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { [unowned self] in
                let (name, userInfo) = ($0.name, $0.userInfo)
                lock.withLock { entries.append((name, userInfo)) }
            }
        }
    }

    deinit { observers.forEach(NotificationCenter.default.removeObserver) }

    var names: [Notification.Name] { lock.withLock { entries.map(\.name) } }

    /// The user info of the last notification.
    var lastUserInfo: [AnyHashable: Any]? { lock.withLock { entries.last?.userInfo } }

    /// The identifiers the last notification lists under a key, or nil when it has no such entry.
    func identifiers(_ key: ModelContext.NotificationKey) -> [PersistentIdentifier]? {
        lastUserInfo?[key.rawValue] as? [PersistentIdentifier]
    }

    /// The identifiers the notification at a position lists under a key, or nil when it has no such entry.
    func identifiers(_ key: ModelContext.NotificationKey, at position: Int) -> [PersistentIdentifier]? {
        lock.withLock { entries.indices.contains(position) ? entries[position].userInfo : nil }?[key.rawValue]
            as? [PersistentIdentifier]
    }
}

@Suite struct SaveNotificationTests {
    @Test func aSavePostsWillSaveWithoutUserInfoThenDidSaveWithEveryKey() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let notifications = ContextNotifications(of: context)
        try context.save()
        #expect(notifications.names.isEmpty)

        let trip = Trip(name: "Paris", destination: "France", startDate: .now, budget: 100)
        context.insert(trip)
        try context.save()
        #expect(notifications.names == [ModelContext.willSave, ModelContext.didSave])
        #expect(notifications.identifiers(.insertedIdentifiers) == [trip.persistentModelID])
        #expect(notifications.identifiers(.updatedIdentifiers) == [])
        #expect(notifications.identifiers(.deletedIdentifiers) == [])
        #expect(notifications.identifiers(.invalidatedAllIdentifiers) == nil)
        #expect(notifications.lastUserInfo?[ModelContext.NotificationKey.queryGeneration.rawValue] == nil)
    }

    @Test func rowsDeletedWithoutLoadingTheirModelsAreListedAsDeleted() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(TripTag.self, Trip.self, at: directory.store())
        let writer = ModelContext(container)
        let tags = ["a", "b", "c"].map { TripTag(label: $0) }
        tags.forEach(writer.insert)
        try writer.save()

        let context = ModelContext(container)
        let notifications = ContextNotifications(of: context)
        try context.delete(model: TripTag.self, where: #Predicate { $0.label != "b" })
        try context.save()
        #expect(
            Set(try #require(notifications.identifiers(.deletedIdentifiers))) == [
                tags[0].persistentModelID, tags[2].persistentModelID,
            ])
    }

    @Test func deletingAllDataInvalidatesEveryModelAContextHeld() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(TripTag.self, Trip.self, at: directory.store())
        let context = ModelContext(container)
        let kept = TripTag(label: "kept")
        let other = TripTag(label: "other")
        context.insert(kept)
        context.insert(other)
        try context.save()
        let pending = TripTag(label: "pending")
        context.insert(pending)
        let notifications = ContextNotifications(of: context)

        container.deleteAllData()
        #expect(notifications.names.isEmpty)
        #expect(try context.fetch(FetchDescriptor<TripTag>()).map(\.label) == ["pending"])
        #expect(notifications.names == [ModelContext.didSave])
        #expect(
            Set(try #require(notifications.identifiers(.invalidatedAllIdentifiers)))
                == [kept.persistentModelID, other.persistentModelID])
        #expect(notifications.identifiers(.insertedIdentifiers) == [])
        #expect(kept.isDeleted)
        #expect(context.registeredModel(for: kept.persistentModelID) as TripTag? == nil)

        // Told once: the next fetch posts nothing more.
        _ = try context.fetch(FetchDescriptor<TripTag>())
        #expect(notifications.names == [ModelContext.didSave])
    }

    @Test func erasingTellsEveryContextAtItsNextSave() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(TripTag.self, Trip.self, at: directory.store())
        let first = ModelContext(container)
        let tag = TripTag(label: "one")
        first.insert(tag)
        try first.save()
        let second = ModelContext(container)
        let seen = try #require(try second.fetch(FetchDescriptor<TripTag>()).first)
        let notifications = ContextNotifications(of: second)

        try container.erase()
        second.insert(TripTag(label: "two"))
        try second.save()
        #expect(notifications.names == [ModelContext.didSave, ModelContext.willSave, ModelContext.didSave])
        #expect(seen.isDeleted)
        #expect(try ModelContext(container).fetch(FetchDescriptor<TripTag>()).map(\.label) == ["two"])
    }
}
