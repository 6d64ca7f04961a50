import Foundation
import SwiftData

// A notes app's models, as CloudKit wants them: no unique constraints, every attribute with a default value or
// optional, every relationship optional. `uid` names a model the same way on every replica, for the tests' checks.

@Model
final class SyncFolder {
    var uid: String = ""
    var name: String = ""
    @Relationship(deleteRule: .cascade, inverse: \SyncNote.folder) var notes: [SyncNote]? = []

    init(uid: String = UUID().uuidString, name: String) {
        self.uid = uid
        self.name = name
    }
}

@Model
final class SyncNote {
    var uid: String = ""
    var title: String = ""
    var body: String = ""
    var pinnedAt: Date?
    var folder: SyncFolder?
    @Relationship(inverse: \SyncLabel.notes) var labels: [SyncLabel]? = []
    @Attribute(.externalStorage) var attachment: Data?

    init(uid: String = UUID().uuidString, title: String, folder: SyncFolder? = nil) {
        self.uid = uid
        self.title = title
        self.folder = folder
    }
}

@Model
final class SyncLabel {
    var uid: String = ""
    var name: String = ""
    var notes: [SyncNote]? = []

    init(uid: String = UUID().uuidString, name: String) {
        self.uid = uid
        self.name = name
    }
}

/// Every model of the notes schema, as text that is equal on two replicas exactly when they hold the same models.
func dump(_ container: ModelContainer) throws -> String {
    let context = ModelContext(container)
    var lines: [String] = []
    for folder in try context.fetch(FetchDescriptor<SyncFolder>(sortBy: [SortDescriptor(\.uid)])) {
        let notes = (folder.notes ?? []).map(\.uid).sorted()
        lines.append("folder \(folder.uid) \(folder.name) notes \(notes)")
    }
    for note in try context.fetch(FetchDescriptor<SyncNote>(sortBy: [SortDescriptor(\.uid)])) {
        let labels = (note.labels ?? []).map(\.uid).sorted()
        lines.append(
            "note \(note.uid) \(note.title) | \(note.body) | \(note.pinnedAt.map { "\($0.timeIntervalSince1970)" } ?? "-") "
                + "folder \(note.folder?.uid ?? "-") labels \(labels) attachment \(note.attachment?.count ?? -1)")
    }
    for label in try context.fetch(FetchDescriptor<SyncLabel>(sortBy: [SortDescriptor(\.uid)])) {
        let notes = (label.notes ?? []).map(\.uid).sorted()
        lines.append("label \(label.uid) \(label.name) notes \(notes)")
    }
    return lines.joined(separator: "\n")
}

// One-to-one: a person and their passport.
@Model
final class SyncPerson {
    var uid: String = ""
    var passport: SyncPassport?

    init(uid: String) { self.uid = uid }
}

@Model
final class SyncPassport {
    var uid: String = ""
    @Relationship(inverse: \SyncPerson.passport) var owner: SyncPerson?

    init(uid: String) { self.uid = uid }
}

// One-to-many whose delete rule nullifies: deleting a tray leaves its cards without one.
@Model
final class SyncTray {
    var uid: String = ""
    @Relationship(deleteRule: .nullify, inverse: \SyncCard.tray) var cards: [SyncCard]? = []

    init(uid: String) { self.uid = uid }
}

@Model
final class SyncCard {
    var uid: String = ""
    var tray: SyncTray?

    init(uid: String, tray: SyncTray? = nil) {
        self.uid = uid
        self.tray = tray
    }
}

/// A model only the device keeps, in a store that does not sync.
@Model
final class LocalCacheEntry {
    var key: String = ""
    var hits: Int = 0

    init(key: String) { self.key = key }
}

/// The people, passports, trays and cards of a container, as text equal on replicas holding the same.
func dumpLinks(_ container: ModelContainer) throws -> String {
    let context = ModelContext(container)
    var lines: [String] = []
    for person in try context.fetch(FetchDescriptor<SyncPerson>(sortBy: [SortDescriptor(\.uid)])) {
        lines.append("person \(person.uid) passport \(person.passport?.uid ?? "-")")
    }
    for passport in try context.fetch(FetchDescriptor<SyncPassport>(sortBy: [SortDescriptor(\.uid)])) {
        lines.append("passport \(passport.uid) owner \(passport.owner?.uid ?? "-")")
    }
    for card in try context.fetch(FetchDescriptor<SyncCard>(sortBy: [SortDescriptor(\.uid)])) {
        lines.append("card \(card.uid) tray \(card.tray?.uid ?? "-")")
    }
    return lines.joined(separator: "\n")
}
