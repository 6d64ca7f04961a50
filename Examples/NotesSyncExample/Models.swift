import Foundation
import SwiftData

/// Seed 002's note, as a synced store wants it: every attribute has a default value (CloudKit's rule), so a record
/// from a device on an older version, without a newer field, still makes a note.
@Model
final class Note {
    var id: UUID = UUID()
    var title: String = ""
    var createdAt: Date = Date.now
    var pinnedAt: Date?

    init(title: String, pinnedAt: Date? = nil) {
        self.id = UUID()
        self.title = title
        self.createdAt = .now
        self.pinnedAt = pinnedAt
    }
}

/// The editor's draft, as in the seed: the model changes only when the user saves.
struct NoteDraft {
    var title = ""
    var pinned = false
}

enum ValidationError: Error { case emptyTitle, titleTooLong }

/// Seed 002's editor: validates the draft, then writes it to the note and saves.
@MainActor
final class NoteEditorViewModel {
    var draft: NoteDraft
    private let note: Note
    private let context: ModelContext

    init(note: Note, context: ModelContext) {
        self.note = note
        self.context = context
        self.draft = NoteDraft(title: note.title, pinned: note.pinnedAt != nil)
    }

    func save() throws {
        let normalized = draft.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !normalized.isEmpty else { throw ValidationError.emptyTitle }
        guard normalized.count <= 140 else { throw ValidationError.titleTooLong }
        note.title = normalized
        note.pinnedAt = draft.pinned ? (note.pinnedAt ?? .now) : nil
        try context.save()
    }
}
