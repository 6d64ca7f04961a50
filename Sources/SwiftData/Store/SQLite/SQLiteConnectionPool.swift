internal import Foundation

/// The connections of one store: one writer that every save goes through, and a few readers so that fetches run
/// concurrently with each other and with a save (SQLite's WAL mode lets readers see the last committed state).
///
/// An in-memory database cannot be shared between connections, so there the writer also serves every read.
final class SQLiteConnectionPool: @unchecked Sendable {
    // @unchecked: the writer is only used under `writerLock`; a reader is only used by the thread that checked it
    // out, and the idle list only under `readerCondition`.
    let writer: SQLiteConnection
    let log: SQLiteStatementLog
    private let writerLock = NSLock()
    private let readerCondition = NSCondition()
    private var idleReaders: [SQLiteConnection] = []
    private var openReaders = 0
    private let path: String
    private let sharesWriter: Bool
    private let maximumReaders = 4

    init(path: String, readOnly: Bool) throws {
        self.path = path
        self.log = SQLiteStatementLog()
        self.sharesWriter = path == ":memory:"
        self.writer = try SQLiteConnection(path: path, readOnly: readOnly, log: log)
    }

    /// A pool over an existing connection that serves reads and writes alike (a migration's contexts).
    init(sharing connection: SQLiteConnection) {
        self.path = connection.path
        self.log = SQLiteStatementLog()
        self.sharesWriter = true
        self.writer = connection
    }

    /// Runs `body` with the writer, one caller at a time.
    func write<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        return try body(writer)
    }

    /// Takes the writer until `releaseWriter()`, for a save that keeps a transaction open on several stores at once.
    /// Such a save takes its stores' writers in one order (see `ModelContext.save()`), so two saves never each
    /// hold a writer the other waits for.
    func takeWriter() -> SQLiteConnection {
        writerLock.lock()
        return writer
    }

    /// Gives back the writer `takeWriter()` took.
    func releaseWriter() {
        writerLock.unlock()
    }

    /// Runs `body` with a reader, waiting when every reader is busy; inside `withPinnedReader(_:)`'s body, with the
    /// reader pinned there.
    /// How many prepared statements each open connection keeps: the writer's, then each idle reader's.
    var cachedStatementCounts: [Int] {
        let written = write { $0.cachedStatementCount }
        readerCondition.lock()
        defer { readerCondition.unlock() }
        return [written] + idleReaders.map(\.cachedStatementCount)
    }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if let pinned = Self.pinned.reader(of: self) { return try body(pinned) }
        if sharesWriter { return try write(body) }
        let reader = try checkOutReader()
        defer { checkIn(reader) }
        return try body(reader)
    }

    /// Runs `body` with a reader that every `read(_:)` of this pool during `body`, on this thread or task, uses too,
    /// so that a read transaction `body` opens on it spans all those reads (see `SQLiteStore.withReadSnapshot(_:)`).
    /// Inside such a `body` of this pool already, it runs with the reader pinned there.
    ///
    /// `body` must not write through this pool: a store in memory reads with the writer, which `body` then holds.
    func withPinnedReader<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if let pinned = Self.pinned.reader(of: self) { return try body(pinned) }
        return try read { reader in
            try Self.$pinned.withValue(Self.pinned.pinning(reader, of: self)) { try body(reader) }
        }
    }

    /// The readers `withPinnedReader(_:)` pinned for the running task or thread.
    @TaskLocal private static var pinned = PinnedReaders()

    private func checkOutReader() throws -> SQLiteConnection {
        readerCondition.lock()
        defer { readerCondition.unlock() }
        while true {
            if let reader = idleReaders.popLast() { return reader }
            if openReaders < maximumReaders {
                openReaders += 1
                do {
                    return try SQLiteConnection(path: path, readOnly: true, log: log)
                } catch {
                    openReaders -= 1
                    throw error
                }
            }
            readerCondition.wait()
        }
    }

    private func checkIn(_ reader: SQLiteConnection) {
        readerCondition.lock()
        idleReaders.append(reader)
        readerCondition.signal()
        readerCondition.unlock()
    }
}

/// The readers `SQLiteConnectionPool.withPinnedReader(_:)` pinned, by pool.
private struct PinnedReaders: @unchecked Sendable {
    // @unchecked: a pinned reader is used only by the body `withPinnedReader(_:)` runs, synchronously, on the
    // thread that checked the reader out. That body runs no code of the app and starts no task, so no other thread
    // sees this task-local value while the reader is pinned.
    private var readers: [(pool: ObjectIdentifier, reader: SQLiteConnection)] = []

    /// The reader pinned for a pool, if any.
    func reader(of pool: SQLiteConnectionPool) -> SQLiteConnection? {
        guard !readers.isEmpty else { return nil }
        return readers.first { $0.pool == ObjectIdentifier(pool) }?.reader
    }

    /// These readers and one more, pinned for a pool.
    func pinning(_ reader: SQLiteConnection, of pool: SQLiteConnectionPool) -> PinnedReaders {
        var pinned = self
        pinned.readers.append((ObjectIdentifier(pool), reader))
        return pinned
    }
}

/// The SQL a store's connections ran: a count, and the most recent statements, for tests and diagnostics.
package final class SQLiteStatementLog: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    package init() {}
    private let lock = NSLock()
    private var recent: [String] = []
    private var total = 0
    private let limit = 256

    func record(_ sql: String) {
        lock.lock()
        defer { lock.unlock() }
        total += 1
        if recent.count == limit { recent.removeFirst(limit / 2) }
        recent.append(sql)
    }

    /// The most recent statements, oldest first.
    var statements: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recent
    }

    /// How many statements ran.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }
}
