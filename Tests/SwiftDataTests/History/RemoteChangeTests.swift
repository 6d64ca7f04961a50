import Foundation
import Testing

@testable import SwiftData

/// `ModelContainer.remoteChange`: posted for saves another process or container commits, not for the container's
/// own.
@Suite struct RemoteChangeTests {
    /// Counts the container's remote-change notifications and keeps their tokens.
    final class Listener: @unchecked Sendable {
        // @unchecked: the fields are guarded by `lock`.
        private let lock = NSLock()
        private var tokens: [DefaultHistoryToken] = []
        private var observer: (any NSObjectProtocol)?

        init(_ container: ModelContainer) {
            observer = NotificationCenter.default.addObserver(
                forName: ModelContainer.remoteChange, object: container, queue: nil
            ) { [weak self] notification in
                guard let self, let token = notification.userInfo?["historyToken"] as? DefaultHistoryToken else {
                    return
                }
                self.lock.withLock { self.tokens.append(token) }
            }
        }

        deinit { observer.map(NotificationCenter.default.removeObserver) }

        var received: [DefaultHistoryToken] { lock.withLock { tokens } }

        /// Waits up to ten seconds for at least `count` notifications.
        func wait(for count: Int) async throws -> [DefaultHistoryToken] {
            for _ in 0..<200 where received.count < count { try await _Concurrency.Task.sleep(for: .milliseconds(50)) }
            return received
        }
    }

    @Test func anotherProcesssSaveIsAnnouncedWithItsToken() async throws {
        let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("StoreWriterHelper")
        try #require(FileManager.default.isExecutableFile(atPath: helper.path))
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Tally.self, at: url)
        let listener = Listener(container)

        let process = Process()
        process.executableURL = helper
        process.arguments = [url.path, "there", "2"]
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let tokens = try await listener.wait(for: 1)
        try #require(!tokens.isEmpty)
        // The newest token announced is the other process's last transaction.
        let context = ModelContext(container)
        let newest = try #require(tokens.max())
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil))
        #expect(history.count == 2)
        #expect(history.last?.token == newest)
        #expect(history.allSatisfy { $0.processIdentifier == String(process.processIdentifier) })
    }

    @Test func anotherContainersSaveIsAnnouncedAndTheContainersOwnAreNot() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Tally.self, at: url)
        let listener = Listener(container)
        let own = ModelContext(container)
        for number in 0..<3 {
            own.insert(Tally(writer: "own", number: number))
            try own.save()
        }
        let other = ModelContext(try makeContainer(Tally.self, at: url))
        other.insert(Tally(writer: "other", number: 0))
        try other.save()

        let tokens = try await listener.wait(for: 1)
        try #require(!tokens.isEmpty)
        let history = try own.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil))
        #expect(tokens.max() == history.last?.token)
        // Only the other container's save was announced: give a stray notification of an own save time to come.
        try await _Concurrency.Task.sleep(for: .milliseconds(300))
        #expect(listener.received.count == 1)
    }
}
