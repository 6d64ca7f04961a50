internal import Foundation

/// The files that hold large `.externalStorage` values beside a store.
///
/// A `Data` value of at least `threshold` bytes is written to its own file in
/// `<store directory>/.<store name>_SUPPORT/_EXTERNAL_DATA/` and its column holds `swiftdata-external:<file>`.
/// New files are written (to a temporary file, synced, then renamed) before the save commits and removed again if
/// it fails; files a save makes obsolete are removed only after it commits. Files left behind by a crash between
/// those steps are removed the next time the store opens.
struct ExternalDataStore: Sendable {
    /// Values of at least this many bytes (128 KiB) are stored in files.
    static let threshold = 128 * 1024
    /// The prefix of the text a column holds for a value stored in a file.
    static let prefix = "swiftdata-external:"

    let directory: URL

    init(storeURL: URL) {
        let name = storeURL.deletingPathExtension().lastPathComponent
        directory = storeURL.deletingLastPathComponent()
            .appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// Writes a value to a new file, durably, and returns the file's name.
    func write(_ data: Data) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let temporary = directory.appendingPathComponent(name + ".tmp")
        try data.write(to: temporary)
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.synchronize()
        try handle.close()
        try FileManager.default.moveItem(at: temporary, to: directory.appendingPathComponent(name))
        return name
    }

    /// The value stored in a file.
    func read(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// Removes files; a file that is already gone is not an error.
    func remove(_ names: [String]) {
        for name in names { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
    }

    /// Removes every file no row refers to, and any temporary file.
    func removeOrphans(referenced: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        remove(names.filter { !referenced.contains($0) })
    }

    /// The file name a column value refers to, if it refers to one.
    static func fileName(in value: SQLiteValue) -> String? {
        guard case .text(let text) = value, text.hasPrefix(prefix) else { return nil }
        return String(text.dropFirst(prefix.count))
    }
}

/// The files one save writes and makes obsolete.
final class ExternalFileChanges {
    var written: [String] = []
    var obsolete: [String] = []
}
