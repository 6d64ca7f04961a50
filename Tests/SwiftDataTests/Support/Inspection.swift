import Foundation
import Observation
import SwiftData
import Testing

/// Runs SQL on a store file with the sqlite3 command-line tool and returns its output lines: to set up
/// situations a user cannot, and to look at what SwiftData wrote. The tool lacks the SWIFTDATA collation, so
/// queries must not compare or sort string columns.
@discardableResult
func sqliteRows(_ url: URL, _ sql: String) throws -> [String] {
    let process = Process()
    let pipe = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", url.path, sql]
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "sqlite3 failed on: \(sql)")
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
}

/// Runs SQL on a store file with the sqlite3 command-line tool.
func runSQLite(_ url: URL, _ sql: String) throws {
    try sqliteRows(url, sql)
}

/// The column names of a table.
func columnNames(_ url: URL, table: String) throws -> [String] {
    try sqliteRows(url, "SELECT name FROM pragma_table_info('\(table)')")
}

/// Runs `change` and reports whether reading `read` inside observation tracking saw a change.
func observesChange(_ read: () -> Void, when change: () throws -> Void) rethrows -> Bool {
    nonisolated(unsafe) var changed = false
    // Safe: onChange runs synchronously on this thread, during `change`.
    withObservationTracking(read) { changed = true }
    try change()
    return changed
}

/// The identifiers under `key` in the `didSave` notification that `save` makes `context` post.
func identifiersInDidSave(
    of context: ModelContext,
    under key: ModelContext.NotificationKey,
    during save: () throws -> Void
) rethrows -> [PersistentIdentifier] {
    nonisolated(unsafe) var identifiers: [PersistentIdentifier] = []
    // Safe: the notification is posted synchronously on this thread, inside save().
    let observer = NotificationCenter.default.addObserver(
        forName: ModelContext.didSave, object: context, queue: nil
    ) {
        identifiers = $0.userInfo?[key.rawValue] as? [PersistentIdentifier] ?? []
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    try save()
    return identifiers
}
