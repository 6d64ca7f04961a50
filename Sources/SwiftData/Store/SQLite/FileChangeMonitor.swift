internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

/// One thread for the whole process that learns when files change, for the stores that watch for saves made
/// elsewhere (see `SQLiteChangeWatch`).
///
/// On Linux it waits on one inotify instance, with one watch per directory however many stores live there, so a
/// program with many containers uses one thread and one of the system's inotify instances (of which a user gets
/// 128). A registration names the files it cares about; an event for one of them runs the registration's check.
/// Without inotify (elsewhere, when the system refuses a watch, or after the kernel's event queue overflowed),
/// registrations are checked twice a second. Registrations name directories by their resolved paths, so one
/// directory reached through different paths (a symbolic link, `..`) has one watch. A file counts as changed once
/// it is closed after writing, or moved into the directory: writes to a file that stays open (SQLite's log) wake
/// nothing.
final class FileChangeMonitor: @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `lock`; the descriptors are set once.
    static let shared = FileChangeMonitor()

    /// A directory's files one registration watches, and what to run when one changes.
    private struct Registration {
        let directory: String
        let fileNames: Set<String>
        let check: @Sendable () -> Void
        var isDue = false
    }

    private let lock = NSLock()
    private var registrations: [Int: Registration] = [:]
    private var nextIdentifier = 0
    /// The inotify watch of each watched directory, with the number of registrations in it.
    private var watches: [String: (descriptor: Int32, count: Int)] = [:]
    private var directoryByWatch: [Int32: String] = [:]
    private var isRunning = false
    private let inotifyFD: Int32
    /// Written to when registrations change, so the thread recomputes how long it may wait.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        #if os(Linux)
            inotifyFD = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        #else
            inotifyFD = -1
        #endif
        var descriptors: [Int32] = [-1, -1]
        if pipe(&descriptors) != 0 { descriptors = [-1, -1] }
        wakeRead = descriptors[0]
        wakeWrite = descriptors[1]
        if wakeRead >= 0 { _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK) }
    }

    /// Starts running `check` when one of the files of `directory` changes; returns the registration's identifier
    /// for `unregister(_:)`.
    func register(directory: String, fileNames: Set<String>, check: @escaping @Sendable () -> Void) -> Int {
        let directory = Self.resolved(directory)
        let (identifier, isUnwatched) = lock.withLock {
            nextIdentifier += 1
            registrations[nextIdentifier] = Registration(directory: directory, fileNames: fileNames, check: check)
            addWatch(directory)
            if !isRunning {
                isRunning = true
                let thread = Thread { [self] in run() }
                thread.name = "SwiftData file changes"
                thread.start()
            }
            return (nextIdentifier, watches[directory] == nil)
        }
        // The thread may be waiting with no timeout: a registration only the timer can check must start it.
        if isUnwatched { wake() }
        return identifier
    }

    /// A path with symbolic links, `.` and `..` resolved (by `realpath`, one call), or the path as given when it
    /// does not exist.
    static func resolved(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Stops a registration's checks; a check running meanwhile may still complete.
    func unregister(_ identifier: Int) {
        lock.withLock {
            guard let registration = registrations.removeValue(forKey: identifier) else { return }
            removeWatch(registration.directory)
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        if wakeWrite >= 0 { _ = write(wakeWrite, &byte, 1) }
    }

    // MARK: - Watches (under the lock)

    private func addWatch(_ directory: String) {
        #if os(Linux)
            if let watch = watches[directory] {
                watches[directory] = (watch.descriptor, watch.count + 1)
                return
            }
            guard inotifyFD >= 0 else { return }
            // A file is reported once written and closed, or moved in. Not as it is written: the watch is of the
            // whole directory, and SQLite writes its log there, page by page, keeping it open; an event for each
            // write woke this thread (and cost the writer the wake-up) many times over during every large save.
            let descriptor = inotify_add_watch(inotifyFD, directory, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO))
            // Without a watch of this directory its registrations are checked on the timer.
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
        var lastTimerCheck = clock.now
        while true {
            let hasUnwatched = lock.withLock { registrations.values.contains(where: isUnwatched) }
            let untilTimer = Duration.milliseconds(500) - (clock.now - lastTimerCheck)
            let timeout: Int32 =
                hasUnwatched ? Int32(max(0, min(500, (untilTimer / .milliseconds(1)).rounded(.up)))) : -1
            // The thread lives as long as the process: idle, it waits in `poll` and costs nothing.
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if inotifyFD >= 0 { descriptors.append(pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0)) }
            if poll(&descriptors, nfds_t(descriptors.count), timeout) < 0 { continue }
            if descriptors[0].revents != 0 { drainWakes() }
            if descriptors.count > 1, descriptors[1].revents != 0 { readEvents() }
            let timerIsDue = clock.now - lastTimerCheck >= .milliseconds(500)
            if timerIsDue { lastTimerCheck = clock.now }
            runDueChecks(includingUnwatched: timerIsDue)
        }
    }

    private func drainWakes() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    /// Reads the pending inotify events and marks the registrations whose files changed.
    private func readEvents() {
        #if os(Linux)
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = read(inotifyFD, &buffer, buffer.count)
                guard count > 0 else { return }
                lock.withLock {
                    buffer.withUnsafeBytes { bytes in
                        var offset = 0
                        // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len].
                        while offset + 16 <= count {
                            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                            let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)]
                            offset += 16 + length
                            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                                // Events were lost: every registration may have missed a change.
                                for identifier in registrations.keys { registrations[identifier]?.isDue = true }
                                continue
                            }
                            guard let directory = directoryByWatch[watch] else { continue }
                            if mask & UInt32(IN_IGNORED) != 0 {
                                // The directory went away: its registrations fall back to the timer.
                                watches[directory] = nil
                                directoryByWatch[watch] = nil
                                continue
                            }
                            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                            for (identifier, registration) in registrations
                            where registration.directory == directory && registration.fileNames.contains(name) {
                                registrations[identifier]?.isDue = true
                            }
                        }
                    }
                }
            }
        #endif
    }

    /// Runs the checks of the registrations whose files changed, and with `includingUnwatched` those no watch
    /// covers.
    private func runDueChecks(includingUnwatched: Bool) {
        var checks = lock.withLock { () -> [@Sendable () -> Void] in
            var checks: [@Sendable () -> Void] = []
            for (identifier, registration) in registrations
            where registration.isDue || (includingUnwatched && isUnwatched(registration)) {
                registrations[identifier]?.isDue = false
                checks.append(registration.check)
            }
            return checks
        }
        // Each check is let go once it ran, not when the whole batch has.
        while !checks.isEmpty { checks.removeFirst()() }
    }
}
