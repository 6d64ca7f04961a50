import Foundation
import Testing

@testable import SwiftData

@Model
final class RCTag {
    @Attribute(.unique) var label: String
    var note: String
    init(label: String, note: String) {
        self.label = label
        self.note = note
    }
}

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

        /// Waits up to ten seconds for a notification with `token`.
        func wait(for token: DefaultHistoryToken?) async throws -> [DefaultHistoryToken] {
            for _ in 0..<200 where !received.contains(where: { $0 == token }) {
                try await _Concurrency.Task.sleep(for: .milliseconds(50))
            }
            return received
        }
    }

    @Test func anotherProcesssSaveIsAnnouncedWithItsToken() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Tally.self, at: url)
        let listener = Listener(container)

        let process = try runStoreWriter(at: url, writer: "there", count: 2)
        #expect(process.terminationStatus == 0)

        let context = ModelContext(container)
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil))
        #expect(history.count == 2)
        #expect(history.allSatisfy { $0.processIdentifier == String(process.processIdentifier) })
        // The other process's last transaction is announced, and no token beyond it.
        let tokens = try await listener.wait(for: history.last?.token)
        #expect(tokens.max() == history.last?.token)
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

        let history = try own.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil))
        #expect(history.count == 4)
        let tokens = try await listener.wait(for: history.last?.token)
        #expect(tokens == [history.last?.token])
        // Only the other container's save was announced: give a stray notification of an own save time to come.
        try await _Concurrency.Task.sleep(for: .milliseconds(300))
        #expect(listener.received.count == 1)
    }

    /// A multi-store save whose second part fails rolls the first store's part back, and SQLite gives its token again
    /// to the next commit: that commit, another container's, must still be announced.
    @Test func aRolledBackSavesTokenDoesNotHideAnotherContainersSave() async throws {
        for _ in 0..<64 {
            let directory = try TemporaryDirectory()
            let trips = directory.store("trips.store")
            let gadgets = directory.store("gadgets.store")
            let container = try ModelContainer(
                for: Trip.self, Gadget.self,
                configurations: ModelConfiguration("trips", schema: Schema([Trip.self]), url: trips),
                ModelConfiguration("gadgets", schema: Schema([Gadget.self]), url: gadgets))
            let tripStore = try #require(container.stores.first { $0.name == "trips" } as? SQLiteStore)
            let gadgetStore = try #require(container.stores.first { $0.name == "gadgets" } as? SQLiteStore)
            // The trips store's part must be written first.
            guard tripStore.identifier < gadgetStore.identifier else { continue }
            let listener = Listener(container)
            let context = ModelContext(container)
            context.insert(Trip(name: "setup", destination: "-"))
            context.insert(Gadget(name: "setup", serial: 0))
            try context.save()
            try runSQLite(
                gadgets,
                "CREATE TRIGGER refuse BEFORE INSERT ON Gadget WHEN NEW.name = 'boom' BEGIN SELECT RAISE(ABORT, 'no'); END;"
            )
            context.insert(Trip(name: "rome", destination: "Italy"))
            context.insert(Gadget(name: "boom", serial: 1))
            #expect(throws: SwiftDataError.self) { try context.save() }
            let stale = tripStore.ownTransactions.tokens

            let other = ModelContext(try makeContainer(Trip.self, at: trips))
            other.insert(Trip(name: "other", destination: "x"))
            try other.save()
            let newest = try #require(
                try other.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil)).last)
            #expect(
                !stale.contains(newest.transactionIdentifier), "the rolled-back token is still noted as the store's own"
            )
            let tokens = try await listener.wait(for: newest.token)
            #expect(tokens.contains(newest.token), "the other container's save was never announced")
            return
        }
        Issue.record("no container with the trips store first")
    }

    /// A store in memory has no watch: its saves leave no notes behind.
    @Test func aStoreNoOneWatchesKeepsNoNotesOfItsSaves() throws {
        let container = try makeInMemoryContainer(RCTag.self)
        let store = try #require(container.stores.first as? SQLiteStore)
        let context = ModelContext(container)
        for number in 0..<500 {
            context.insert(RCTag(label: "t\(number)", note: ""))
            try context.save()
        }
        #expect(
            store.ownTransactions.tokens.count == 0, "noted: \(store.ownTransactions.tokens.count)")
    }

}
