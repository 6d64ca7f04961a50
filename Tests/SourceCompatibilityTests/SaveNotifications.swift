// Observing saves the way sync and widget-refresh code does: the identifiers of a save read from the `didSave`
// notification's `userInfo` by `ModelContext.NotificationKey`, `willSave` with no `userInfo`, and a full refresh
// when the notification says every identifier was invalidated.
import Foundation
import SwiftData
import Testing

@Model
final class Note {
    var text: String

    init(text: String) {
        self.text = text
    }
}

/// What an observer saw, collected under a lock because notifications arrive on the posting thread.
final class SaveLog: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var entries: [(name: Notification.Name, userInfo: [AnyHashable: Any]?)] = []

    func record(_ notification: Notification) {
        lock.withLock { entries.append((notification.name, notification.userInfo)) }
    }

    var snapshot: [(name: Notification.Name, userInfo: [AnyHashable: Any]?)] { lock.withLock { entries } }
}

/// What a cache of notes must do after a save: refresh the notes a save touched, or everything.
enum CacheRefresh: Equatable {
    case notes(Set<PersistentIdentifier>)
    case everything
}

/// Decides from a `didSave` notification what to refresh, reading every key Apple documents.
func refresh(after notification: Notification) -> CacheRefresh {
    guard let userInfo = notification.userInfo else { return .everything }
    if userInfo[ModelContext.NotificationKey.invalidatedAllIdentifiers.rawValue] != nil { return .everything }
    let keys: [ModelContext.NotificationKey] = [.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers]
    var touched = Set<PersistentIdentifier>()
    for key in keys {
        let identifiers = userInfo[key.rawValue] as? [PersistentIdentifier] ?? []
        touched.formUnion(identifiers.filter { $0.entityName == Schema.entityName(for: Note.self) })
    }
    _ = userInfo[ModelContext.NotificationKey.queryGeneration.rawValue]
    return .notes(touched)
}

@Suite struct SaveNotificationTests {
    @Test func didSaveCarriesTheSavedIdentifiersByNotificationKey() throws {
        let container = try ModelContainer(
            for: Note.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let log = SaveLog()
        let observers = [ModelContext.willSave, ModelContext.didSave].map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { log.record($0) }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }

        let kept = Note(text: "kept")
        let dropped = Note(text: "dropped")
        context.insert(kept)
        context.insert(dropped)
        try context.save()
        kept.text = "edited"
        context.delete(dropped)
        try context.save()

        let entries = log.snapshot
        #expect(
            entries.map(\.name) == [
                ModelContext.willSave, ModelContext.didSave, ModelContext.willSave, ModelContext.didSave,
            ])
        #expect(entries[0].userInfo == nil)
        func identifiers(_ entry: Int, _ key: ModelContext.NotificationKey) -> [PersistentIdentifier] {
            entries[entry].userInfo?[key.rawValue] as? [PersistentIdentifier] ?? []
        }
        #expect(Set(identifiers(1, .insertedIdentifiers)) == [kept.persistentModelID, dropped.persistentModelID])
        #expect(identifiers(1, .updatedIdentifiers).isEmpty)
        #expect(identifiers(3, .updatedIdentifiers) == [kept.persistentModelID])
        #expect(identifiers(3, .deletedIdentifiers) == [dropped.persistentModelID])
        #expect(identifiers(3, .insertedIdentifiers).isEmpty)
    }

    @Test func deletingAllDataTellsObserversToRefreshEverything() throws {
        let container = try ModelContainer(
            for: Note.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let log = SaveLog()
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: context, queue: nil
        ) { log.record($0) }
        defer { NotificationCenter.default.removeObserver(observer) }

        let note = Note(text: "draft")
        context.insert(note)
        try context.save()
        container.deleteAllData()
        #expect(try context.fetch(FetchDescriptor<Note>()).isEmpty)

        let refreshes = log.snapshot.map { refresh(after: Notification(name: $0.name, userInfo: $0.userInfo)) }
        #expect(refreshes == [.notes([note.persistentModelID]), .everything])
    }
}
