internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

/// One thread for the whole process that learns when files change, for the stores that watch for saves made
/// elsewhere (see `SQLiteChangeWatch`).
///
/// On Linux it waits on one inotify instance, with one watch per directory however many stores live there, so a
/// program with many containers uses one thread and one of the system's inotify instances (of which a user gets
/// 128). An event for a file a registration names schedules that registration's check at once and again after
/// 50 ms, 250 ms, 1 s and 3 s: a commit's last write to SQLite's log comes before readers see the commit (after
/// the log is synced), and nothing signals that moment. Without inotify (elsewhere, or when the system refuses
/// it), every registration is checked twice a second.
final class FileChangeMonitor: @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `lock`; the descriptors are set once.
    static let shared = FileChangeMonitor()

    /// A directory's files one registration watches, and what to run when one changes.
    private struct Registration {
        let directory: String
        let fileNames: Set<String>
        let check: @Sendable () -> Void
        /// When to run `check` next, earliest first.
        var due: [ContinuousClock.Instant] = []
    }

    private let lock = NSLock()
    private var registrations: [Int: Registration] = [:]
    private var nextIdentifier = 0
    /// The inotify watch of each watched directory, with the number of registrations in it.
    private var watches: [String: (descriptor: Int32, count: Int)] = [:]
    private var directoryByWatch: [Int32: String] = [:]
    private var isRunning = false
    private let inotifyFD: Int32
    /// The delays of the checks after a change.
    private static let followUps: [Duration] = [.zero, .milliseconds(50), .milliseconds(250), .seconds(1), .seconds(3)]

    private init() {
        #if os(Linux)
            inotifyFD = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        #else
            inotifyFD = -1
        #endif
    }

    /// Starts running `check` when one of the files changes; returns the registration's identifier for
    /// `unregister(_:)`.
    func register(directory: String, fileNames: Set<String>, check: @escaping @Sendable () -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextIdentifier += 1
        registrations[nextIdentifier] = Registration(directory: directory, fileNames: fileNames, check: check)
        addWatch(directory)
        if !isRunning {
            isRunning = true
            let thread = Thread { [self] in run() }
            thread.name = "SwiftData file changes"
            thread.start()
        }
        return nextIdentifier
    }

    /// Stops a registration's checks; a check running meanwhile may still complete.
    func unregister(_ identifier: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard let registration = registrations.removeValue(forKey: identifier) else { return }
        removeWatch(registration.directory)
    }

    // MARK: - Watches (under the lock)

    private func addWatch(_ directory: String) {
        #if os(Linux)
            if let watch = watches[directory] {
                watches[directory] = (watch.descriptor, watch.count + 1)
                return
            }
            guard inotifyFD >= 0 else { return }
            let descriptor = inotify_add_watch(
                inotifyFD, directory, UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO))
            // Without a watch of this directory its registrations are checked on the idle timer.
            guard descriptor >= 0 else { return }
            watches[directory] = (descriptor, 1)
            directoryByWatch[descriptor] = directory
        #endif
    }

    private func removeWatch(_ directory: String) {
        #if os(Linux)
            guard let watch = watches[directory] else { return }
            if watch.count > 1 {
                watches[directory] = (watch.descriptor, watch.count - 1)
                return
            }
            watches[directory] = nil
            directoryByWatch[watch.descriptor] = nil
            inotify_rm_watch(inotifyFD, watch.descriptor)
        #endif
    }

    /// True when a registration's directory has no watch, so only the timer finds its changes.
    private func isUnwatched(_ registration: Registration) -> Bool {
        watches[registration.directory] == nil
    }

    // MARK: - The Thread

    private func run() {
        let clock = ContinuousClock()
        while true {
            let timeout = lock.withLock { () -> Int32 in
                if registrations.values.contains(where: isUnwatched) { return 500 }
                guard let next = registrations.values.compactMap(\.due.first).min() else { return -1 }
                let wait = next - clock.now
                return wait <= .zero ? 0 : Int32(min(wait / .milliseconds(1), 60_000).rounded(.up))
            }
            // The thread lives as long as the process: idle, it waits in `poll` and costs nothing.
            var descriptors = inotifyFD >= 0 ? [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0)] : []
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 { continue }
            if !descriptors.isEmpty, descriptors[0].revents != 0 { readEvents(now: clock.now) }
            runDueChecks(now: clock.now, timedOut: ready == 0)
        }
    }

    /// Reads the pending inotify events and schedules the checks of the registrations whose files changed.
    private func readEvents(now: ContinuousClock.Instant) {
        #if os(Linux)
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = read(inotifyFD, &buffer, buffer.count)
                guard count > 0 else { return }
                var changed: [(directory: String, name: String)] = []
                lock.withLock {
                    buffer.withUnsafeBytes { bytes in
                        var offset = 0
                        // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len].
                        while offset + 16 <= count {
                            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                            let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)]
                            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                            if let directory = directoryByWatch[watch] { changed.append((directory, name)) }
                            offset += 16 + length
                        }
                    }
                    for (identifier, registration) in registrations
                    where changed.contains(where: {
                        $0.directory == registration.directory && registration.fileNames.contains($0.name)
                    }) {
                        registrations[identifier]?.due = Self.followUps.map { now + $0 }
                    }
                }
            }
        #endif
    }

    /// Runs the checks that are due, and on a timeout those of registrations no watch covers.
    private func runDueChecks(now: ContinuousClock.Instant, timedOut: Bool) {
        let checks = lock.withLock { () -> [@Sendable () -> Void] in
            var checks: [@Sendable () -> Void] = []
            for (identifier, registration) in registrations {
                if let first = registration.due.first, first <= now {
                    registrations[identifier]?.due.removeAll { $0 <= now }
                    checks.append(registration.check)
                } else if timedOut, isUnwatched(registration) {
                    checks.append(registration.check)
                }
            }
            return checks
        }
        for check in checks { check() }
    }
}
