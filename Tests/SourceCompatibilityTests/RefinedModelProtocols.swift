// A model adopting the app's own protocol that refines `PersistentModel`, as sync and repository code does: it is a
// root model, although the compiler reports `PersistentModel` as already satisfied.
import Foundation
import SwiftData
import Testing

protocol Syncable: PersistentModel {
    var remoteID: String? { get set }
}

@Model
final class SyncedNote: Syncable {
    var remoteID: String?
    var text: String

    init(text: String) { self.text = text }
}

@Suite struct RefinedModelProtocolTests {
    @Test func aModelOfARefinedProtocolSavesAndReadsBack() throws {
        let container = try ModelContainer(
            for: SyncedNote.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let note = SyncedNote(text: "hello")
        note.remoteID = "r1"
        context.insert(note)
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<SyncedNote>())
        #expect(stored.map(\.text) == ["hello"])
        #expect(stored.map(\.remoteID) == ["r1"])
    }
}
