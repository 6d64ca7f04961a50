internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

/// Watches an SQLite store's files for saves committed by other processes (or other containers of this one), and
/// reports the newest token of their transactions (see `SQLiteStore.watchRemoteChanges(_:)`).
///
/// On Linux it waits on inotify for the store's write-ahead log or file to change, so it costs nothing while the
/// store is idle and learns of a commit as it happens; elsewhere it checks twice a second. On each change it asks
/// the store's history for transactions newer than the last it saw, and leaves out the ones this store object
/// saved itself.
final class SQLiteChangeWatch: StoreChangeWatch, @unchecked Sendable {
    // @unchecked: `stopped` is guarded by `lock`; the descriptors are set once and closed by the thread.
    private let lock = NSLock()
    private var stopped = false
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Starts watching, or returns nil when the store has no file to watch or the system refuses a watch.
    init?(store: SQLiteStore, onChange: @escaping @Sendable (Int64) -> Void) {
        guard !store.configuration.isStoredInMemoryOnly else { return nil }
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return nil }
        wakeRead = descriptors[0]
        wakeWrite = descriptors[1]
        let directory = store.configuration.url.deletingLastPathComponent().path
        let wake = wakeRead
        // Saves committed before the watch began are not reported.
        let initial = (try? store.newestTransactionToken()) ?? 0
        let thread = Thread {
            let events = ChangeEvents(directory: directory, wakeFD: wake)
            defer { close(wake) }
            var newest = initial
            while events.next() {
                guard let tokens = try? store.transactionTokens(after: newest), let last = tokens.last else { continue }
                newest = last
                if tokens.contains(where: { !store.takeOwnTransaction($0) }) { onChange(last) }
            }
        }
        thread.name = "SwiftData remote changes"
        thread.start()
    }

    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        close(wakeWrite)
    }

    deinit { stop() }

    /// The changes of a directory's files, one `next()` per burst of changes; `next()` returns false once the wake
    /// descriptor is written to.
    private final class ChangeEvents {
        let wakeFD: Int32
        #if os(Linux)
            let inotifyFD: Int32
        #endif

        init(directory: String, wakeFD: Int32) {
            self.wakeFD = wakeFD
            #if os(Linux)
                // Without a watch (the system's limit of instances or watches reached), it checks every half second.
                var descriptor = inotify_init1(Int32(IN_CLOEXEC))
                if descriptor >= 0,
                    inotify_add_watch(
                        descriptor, directory, UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) < 0
                {
                    close(descriptor)
                    descriptor = -1
                }
                inotifyFD = descriptor
            #endif
        }

        deinit {
            #if os(Linux)
                if inotifyFD >= 0 { close(inotifyFD) }
            #endif
        }

        /// Checks still to make after the last change: a commit's last write to the log comes just before the
        /// commit becomes visible to readers, and nothing signals the moment it does.
        private var followUps = 0

        /// Waits for the next change, or the next follow-up check after one; false when woken to stop.
        func next() -> Bool {
            var descriptors = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            #if os(Linux)
                if inotifyFD >= 0 { descriptors.append(pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0)) }
                let idle: Int32 = inotifyFD >= 0 ? -1 : 500
            #else
                let idle: Int32 = 500
            #endif
            while true {
                let ready = poll(&descriptors, nfds_t(descriptors.count), followUps > 0 ? 100 : idle)
                if ready < 0, errno == EINTR { continue }
                if descriptors[0].revents != 0 { return false }
                #if os(Linux)
                    if descriptors.count > 1, descriptors[1].revents != 0 {
                        // Drains the events: what changed is asked of the store, not of the events.
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        _ = read(inotifyFD, &buffer, buffer.count)
                        followUps = 2
                        return true
                    }
                #endif
                if followUps > 0 { followUps -= 1 }
                return true
            }
        }
    }
}

/// A watch of a store for changes made elsewhere (see `ModelStore.watchRemoteChanges(_:)`).
protocol StoreChangeWatch: Sendable {
    /// Stops watching; nothing is reported afterwards.
    func stop()
}
