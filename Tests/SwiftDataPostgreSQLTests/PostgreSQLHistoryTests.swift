import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

@Model
final class PGNote {
    @Attribute(.preserveValueOnDeletion) var title: String
    var body: String

    init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}

/// Counts a container's remote-change notifications and keeps their tokens.
final class RemoteChangeListener: @unchecked Sendable {
    // @unchecked: the fields are guarded by `lock`.
    private let lock = NSLock()
    private var tokens: [DefaultHistoryToken] = []
    private var observer: (any NSObjectProtocol)?

    init(_ container: ModelContainer) {
        observer = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: container, queue: nil
        ) { [weak self] notification in
            guard let self, let token = notification.userInfo?["historyToken"] as? DefaultHistoryToken else { return }
            self.lock.withLock { self.tokens.append(token) }
        }
    }

    deinit { observer.map(NotificationCenter.default.removeObserver) }

    var received: [DefaultHistoryToken] { lock.withLock { tokens } }

    /// Waits up to ten seconds for a notification with `token`.
    func wait(for token: DefaultHistoryToken?) async throws -> [DefaultHistoryToken] {
        for _ in 0..<200 where !received.contains(where: { $0 == token }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        return received
    }
}

@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLHistoryTests {
    @Test func anotherContainersSaveIsAnnouncedAndTheContainersOwnAreNot() async throws {
        let (container, database) = try makePostgreSQLContainer(PGNote.self)
        let listener = RemoteChangeListener(container)
        let own = ModelContext(container)
        for number in 0..<3 {
            own.insert(PGNote(title: "own \(number)", body: ""))
            try own.save()
        }
        let (otherContainer, _) = try makePostgreSQLContainer(PGNote.self, url: database)
        let other = ModelContext(otherContainer)
        other.insert(PGNote(title: "other", body: ""))
        try other.save()

        let history = try own.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 4)
        let tokens = try await listener.wait(for: history.last?.token)
        #expect(tokens == [history.last?.token])
        // Only the other container's save was announced: give a stray notification of an own save time to come.
        try await Task.sleep(for: .milliseconds(300))
        #expect(listener.received.count == 1)
        // The other container's save reaches this container's contexts on their next fetch.
        #expect(try own.fetchCount(FetchDescriptor<PGNote>()) == 4)
    }
}

/// Live results on a PostgreSQL store follow the saves of other containers, which reach them over the store's
/// notifications and history.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLLiveResultsTests {
    @Test @MainActor func aLiveQueryFollowsAnotherContainersSaves() async throws {
        let (container, database) = try makePostgreSQLContainer(PGNote.self)
        let context = ModelContext(container)
        context.insert(PGNote(title: "b", body: "open"))
        try context.save()
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<PGNote>(
                predicate: #Predicate { $0.body == "open" }, sortBy: [SortDescriptor(\.title)]),
            modelContext: context)
        #expect(observer.results.map(\.title) == ["b"])

        let (otherContainer, _) = try makePostgreSQLContainer(PGNote.self, url: database)
        let other = ModelContext(otherContainer)
        other.insert(PGNote(title: "a", body: "open"))
        other.insert(PGNote(title: "c", body: "closed"))
        try other.save()
        var arrived = false
        for _ in 0..<400 where !arrived {
            arrived = observer.results.map(\.title) == ["a", "b"]
            if !arrived { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(observer.results.map(\.title) == ["a", "b"])

        let b = try #require(try other.fetch(FetchDescriptor<PGNote>(predicate: #Predicate { $0.title == "b" })).first)
        b.body = "closed"
        try other.save()
        arrived = false
        for _ in 0..<400 where !arrived {
            arrived = observer.results.map(\.title) == ["a"]
            if !arrived { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(observer.results.map(\.title) == ["a"])
    }
}
