import Foundation
import SwiftData
import SwiftDataSync
import Testing

/// A memo app's first schema.
enum MemoV1 {
    @Model
    final class Memo {
        var uid: String = ""
        var title: String = ""

        init(uid: String, title: String) {
            self.uid = uid
            self.title = title
        }
    }
}

/// Its second: a field added, as CloudKit allows (additive, with a default).
enum MemoV2 {
    @Model
    final class Memo {
        var uid: String = ""
        var title: String = ""
        var mood: String = "calm"

        init(uid: String, title: String, mood: String) {
            self.uid = uid
            self.title = title
            self.mood = mood
        }
    }
}

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncSchemaEvolutionTests {
    @Test func aReplicaOnTheOlderSchemaKeepsSyncingAndTheNewerFieldsSurvive() async throws {
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        let newer = try Replica([MemoV2.Memo.self], server: server.server, account: account, clock: clock)
        let older = try Replica([MemoV1.Memo.self], server: server.server, account: account, clock: clock)

        let context = newer.context()
        context.insert(MemoV2.Memo(uid: "m1", title: "First", mood: "happy"))
        try context.save()
        try await newer.sync()
        try await older.sync()

        let olderContext = older.context()
        let onOlder = try #require(try olderContext.fetch(FetchDescriptor<MemoV1.Memo>()).first)
        #expect(onOlder.title == "First")
        onOlder.title = "Edited on the older version"
        olderContext.insert(MemoV1.Memo(uid: "m2", title: "Made on the older version"))
        try olderContext.save()
        try await older.sync()
        try await newer.sync()

        let memos = try newer.context().fetch(FetchDescriptor<MemoV2.Memo>(sortBy: [SortDescriptor(\.uid)]))
        #expect(memos.map(\.title) == ["Edited on the older version", "Made on the older version"])
        #expect(memos.map(\.mood) == ["happy", "calm"])

        // A replica that starts on the newer schema gets the field the older one never knew.
        let fresh = try Replica([MemoV2.Memo.self], server: server.server, account: account, clock: clock)
        try await fresh.sync()
        let freshMemos = try fresh.context().fetch(FetchDescriptor<MemoV2.Memo>(sortBy: [SortDescriptor(\.uid)]))
        #expect(freshMemos.map(\.mood) == ["happy", "calm"])
        #expect(freshMemos.map(\.title) == memos.map(\.title))
    }

    @Test func aReplicaThatUpgradesGetsTheValuesItsOlderSchemaSkipped() async throws {
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        let newer = try Replica([MemoV2.Memo.self], server: server.server, account: account, clock: clock)
        let older = try Replica([MemoV1.Memo.self], server: server.server, account: account, clock: clock)
        let context = newer.context()
        context.insert(MemoV2.Memo(uid: "m1", title: "First", mood: "happy"))
        try context.save()
        try await newer.sync()
        try await older.sync()

        // The older replica's app is updated: its store migrates to the newer schema, and its engine reads again
        // what it skipped.
        let upgraded = try Replica(
            reopening: older, as: [MemoV2.Memo.self], server: server.server, account: account, clock: clock)
        try await upgraded.sync()
        let memo = try #require(try upgraded.context().fetch(FetchDescriptor<MemoV2.Memo>()).first)
        #expect(memo.mood == "happy")
        #expect(try upgraded.context().fetchCount(FetchDescriptor<MemoV2.Memo>()) == 1)
    }
}
