internal import Dispatch
internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The files that hold large `.externalStorage` values beside a store.
///
/// A `Data` value of at least `threshold` bytes is written to its own file in
/// `<store directory>/.<store name>_SUPPORT/_EXTERNAL_DATA/` and its column holds `swiftdata-external:<file>`.
/// A file never changes once written; a new value gets a new file. These rules keep every committed row's file,
/// with any number of processes on the store and after a crash at any point:
///
/// - A save writes its files (each to a temporary file, synced, renamed into place; then the directory synced)
///   while it holds SQLite's write lock, before it commits. If it fails, it removes them.
/// - The files a save replaces or deletes are removed only after it commits, under the files lock held
///   exclusively (at once, or on a queue of their own when reads hold the lock). A read holds the files lock
///   shared from reading its rows until it has read their files, so no file its rows refer to can go in between.
/// - Opening a store removes the files no committed row refers to (left by a crash between those steps) while it
///   holds both SQLite's write lock, so no other save is under way, and the files lock, so no read is.
///
/// The files lock is an advisory `flock(2)` lock on `.<store name>_SUPPORT/external.lock`, which the system
/// releases when a process ends, however it ends.
struct ExternalDataStore: Sendable {
    /// Values of at least this many bytes (128 KiB) are stored in files.
    static let threshold = 128 * 1024
    /// The prefix of the text a column holds for a value stored in a file.
    static let prefix = "swiftdata-external:"

    let directory: URL
    /// The file whose `flock` lock orders reads of files before removals of files.
    let lockFile: URL

    init(storeURL: URL) {
        let name = storeURL.deletingPathExtension().lastPathComponent
        let support = storeURL.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
        directory = support.appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
        lockFile = support.appendingPathComponent("external.lock")
    }

    /// Writes a value to a new file, durably, and returns the file's name. The caller holds SQLite's write lock.
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

    /// Makes the names of the files written so far durable. A save calls it once, after writing its files and
    /// before it commits: a rename lives in the directory, so without this a power loss after the commit could lose
    /// a file's name while the row that refers to it survives.
    func synchronize() throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSURLErrorKey: directory])
        }
        close(descriptor)
    }

    /// The value stored in a file. The caller holds the files lock, shared.
    func read(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// Removes files no committed row refers to any more, under the files lock held exclusively, so that no read
    /// that found them in its rows is still to read them. A file that is already gone is not an error.
    ///
    /// When reads hold the lock, the removal waits for them on a queue of its own, so that the save that called
    /// it does not: a process that ends first leaves the files to the next opening of the store.
    func remove(_ names: [String]) {
        guard !names.isEmpty else { return }
        if withLock(exclusive: true, waits: false, { removeUnlocked(names) }) != nil { return }
        Self.removals.async { withLock(exclusive: true) { removeUnlocked(names) } }
    }

    /// Removes every file no row refers to, and any temporary file. The caller holds SQLite's write lock, so that
    /// no save is writing files, and the files lock, exclusively.
    func removeOrphans(referenced: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        removeUnlocked(names.filter { !referenced.contains($0) })
    }

    /// Runs `body` holding the files lock: shared to read rows and then their files, exclusive to remove files.
    ///
    /// When the lock file cannot be opened (a read-only directory, where no process can write files either), the
    /// body runs without it.
    func withLock<Result>(exclusive: Bool, _ body: () throws -> Result) rethrows -> Result {
        try withLock(exclusive: exclusive, waits: true, body)!
    }

    /// Runs `body` holding the files lock, or returns nil without running it when the lock is held elsewhere and
    /// `waits` is false.
    func withLock<Result>(exclusive: Bool, waits: Bool, _ body: () throws -> Result) rethrows -> Result? {
        try? FileManager.default.createDirectory(
            at: lockFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        // A descriptor of its own each time: `flock` locks belong to an open file, so two threads of one process
        // sharing a descriptor would not exclude each other.
        let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (waits ? 0 : LOCK_NB)
        while flock(descriptor, operation) != 0 {
            guard errno == EINTR else { return waits ? try body() : nil }
        }
        return try body()
    }

    /// The file name a column value refers to, if it refers to one.
    static func fileName(in value: SQLValue) -> String? {
        guard case .text(let text) = value, text.hasPrefix(prefix) else { return nil }
        return String(text.dropFirst(prefix.count))
    }

    // MARK: - Internal

    /// Runs the removals that had to wait for reads, one at a time.
    private static let removals = DispatchQueue(label: "SwiftData.ExternalDataStore.removals")

    private func removeUnlocked(_ names: [String]) {
        for name in names { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
    }
}

/// The files one save writes and makes obsolete.
final class ExternalFileChanges {
    var written: [String] = []
    var obsolete: [String] = []
}
