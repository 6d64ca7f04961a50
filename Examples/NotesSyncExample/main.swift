import Foundation
import SwiftData
import SwiftDataSync

// Two devices of seed 002's notes app, each with its own store, syncing through a PostgreSQL server: the article's
// test scenario. A makes a note, B gets it, B changes the title; A, offline, enters another title and pins the
// note; the network comes back. The product decision, as the article asks to write it down: the later title wins
// on both devices, and the pin, which only A changed, stays.
//
//     swift run notes-sync-example 'postgresql:///postgres?host=/var/run/postgresql&user=postgres'
//
// The URL may also come from SWIFTDATA_POSTGRESQL_URL. The account is the URL's user: each account's engine
// connects as its own database role.

@MainActor
func main() async throws {
    guard
        let text = CommandLine.arguments.dropFirst().first
            ?? ProcessInfo.processInfo.environment["SWIFTDATA_POSTGRESQL_URL"],
        let url = URL(string: text)
    else {
        print("usage: notes-sync-example <postgresql URL>   (or set SWIFTDATA_POSTGRESQL_URL)")
        exit(2)
    }
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let account =
        components?.user ?? components?.queryItems?.first { $0.name == "user" }?.value
        ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    try SyncServer.preparePostgreSQL(url: url)
    let server = SyncServer.postgreSQL(url: url)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-sync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func device(_ name: String) throws -> (ModelContainer, SyncEngine) {
        let configuration = ModelConfiguration(
            "NotesStore", url: directory.appendingPathComponent("\(name).store"),
            cloudKitDatabase: .private("iCloud.com.example.notes"))
        let container = try ModelContainer(for: Note.self, configurations: configuration)
        return (container, try SyncEngine(container: container, server: server, account: account))
    }
    let (containerA, engineA) = try device("A")
    let (containerB, engineB) = try device("B")
    func sync(_ engine: SyncEngine) async throws {
        try await engine.sendChanges()
        try await engine.fetchChanges()
    }

    // A makes the note; B downloads it.
    let contextA = containerA.mainContext
    let note = Note(title: "İlk not")
    contextA.insert(note)
    try contextA.save()
    try await sync(engineA)
    try await sync(engineB)
    let id = note.id
    let contextB = containerB.mainContext
    guard let noteOnB = try contextB.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.id == id })).first else {
        print("B did not get the note")
        exit(1)
    }
    print("B downloaded: \(noteOnB.title)")

    // B changes the title and syncs.
    let editorB = NoteEditorViewModel(note: noteOnB, context: contextB)
    editorB.draft.title = "B'nin başlığı"
    try editorB.save()
    try await sync(engineB)

    // A, offline, enters another title and pins the note; its save waits in the store's history.
    let editorA = NoteEditorViewModel(note: note, context: contextA)
    editorA.draft = NoteDraft(title: "  A'nın başlığı  ", pinned: true)
    try editorA.save()
    print("A, offline: \(note.title), pinned")

    // The network comes back.
    try await sync(engineA)
    try await sync(engineB)
    for (name, context) in [("A", contextA), ("B", contextB)] {
        let notes = try ModelContext(context.container).fetch(
            FetchDescriptor<Note>(predicate: #Predicate { $0.id == id }))
        guard let synced = notes.first, notes.count == 1 else {
            print("\(name) does not hold the note once")
            exit(1)
        }
        print("\(name): \(synced.title), pinned: \(synced.pinnedAt != nil)")
        guard synced.title == "A'nın başlığı", synced.pinnedAt != nil else {
            print("\(name) did not converge on the later title and the pin")
            exit(1)
        }
    }
    print("Both devices agree.")
}

try await main()
