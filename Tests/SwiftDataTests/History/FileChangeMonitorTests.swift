import Foundation
import Testing

@testable import SwiftData

/// The process's file-change monitor: one watch per directory, whatever path names it, and a timer for
/// directories it cannot watch.
@Suite struct FileChangeMonitorTests {
    /// Counts the checks of one registration.
    final class Counter: @unchecked Sendable {
        // @unchecked: `value` is guarded by `lock`.
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }

        /// Waits up to five seconds for a count of at least `expected`.
        func wait(for expected: Int) async throws -> Int {
            for _ in 0..<100 where count < expected { try await _Concurrency.Task.sleep(for: .milliseconds(50)) }
            return count
        }
    }

    @Test func oneDirectoryReachedThroughTwoPathsIsWatchedOnceAndStaysWatched() async throws {
        let directory = try TemporaryDirectory()
        let link = directory.url.deletingLastPathComponent().appendingPathComponent(UUID().uuidString)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory.url)
        defer { try? FileManager.default.removeItem(at: link) }
        let direct = Counter()
        let throughLink = Counter()
        let monitor = FileChangeMonitor.shared
        let first = monitor.register(directory: directory.url.path, fileNames: ["signal"]) { direct.increment() }
        let second = monitor.register(directory: link.path + "/.", fileNames: ["signal"]) { throughLink.increment() }
        defer { monitor.unregister(first) }
        try Data([1]).write(to: directory.url.appendingPathComponent("signal"))
        #expect(try await direct.wait(for: 1) >= 1)
        #expect(try await throughLink.wait(for: 1) >= 1)

        // The other path's registration goes; the directory stays watched for the first.
        monitor.unregister(second)
        let before = direct.count
        try Data([2]).write(to: directory.url.appendingPathComponent("signal"))
        #expect(try await direct.wait(for: before + 1) > before)
    }

    /// A file is reported once closed after writing: writes to files kept open, as SQLite keeps its log, wake
    /// nothing, and neither do the writes of a signal before its close.
    @Test func aFileIsReportedWhenClosedAfterWriting() async throws {
        let directory = try TemporaryDirectory()
        let counter = Counter()
        let signal = directory.url.appendingPathComponent("signal")
        let log = directory.url.appendingPathComponent("log")
        #expect(FileManager.default.createFile(atPath: signal.path, contents: nil))
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let identifier = FileChangeMonitor.shared.register(directory: directory.url.path, fileNames: ["signal"]) {
            counter.increment()
        }
        defer { FileChangeMonitor.shared.unregister(identifier) }
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        let signalHandle = try FileHandle(forWritingTo: signal)
        for page in 0..<20 { try logHandle.write(contentsOf: Data(repeating: UInt8(page), count: 4096)) }
        try signalHandle.write(contentsOf: Data([1]))
        try await _Concurrency.Task.sleep(for: .milliseconds(200))
        #expect(counter.count == 0)
        try signalHandle.close()
        #expect(try await counter.wait(for: 1) >= 1)
    }

    @Test func aDirectoryThatCannotBeWatchedIsCheckedOnTheTimer() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        let counter = Counter()
        let identifier = FileChangeMonitor.shared.register(directory: missing.path, fileNames: ["signal"]) {
            counter.increment()
        }
        defer { FileChangeMonitor.shared.unregister(identifier) }
        #expect(try await counter.wait(for: 2) >= 2)
    }
}
