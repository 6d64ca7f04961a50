import Foundation
import SwiftData
import Testing

/// What saves record in each store's history, read with `fetchHistory(_:)` and removed with `deleteHistory(_:)`.
@Suite struct StoreHistoryTests {
    typealias Transaction = DefaultHistoryTransaction

    private func history(_ context: ModelContext, after token: DefaultHistoryToken? = nil) throws -> [Transaction] {
        var descriptor = HistoryDescriptor<Transaction>()
        if let token { descriptor.predicate = #Predicate { $0.token > token } }
        return try context.fetchHistory(descriptor)
    }

    @Test(arguments: TestedStore.available)
    func eachSaveIsOneTransactionWithItsChangesAndAuthor(store: TestedStore) throws {
        let container = try store.makeContainer(PGNote.self)
        let context = ModelContext(container)
        context.author = "editor"
        let kept = PGNote(title: "kept", body: "a")
        let gone = PGNote(title: "gone", body: "b")
        context.insert(kept)
        context.insert(gone)
        try context.save()
        kept.body = "changed"
        try context.save()
        context.delete(gone)
        try context.save()
        try context.save()  // nothing to save: no transaction
        let anonymous = ModelContext(container)
        anonymous.insert(PGNote(title: "anonymous", body: ""))
        try anonymous.save()

        let history = try history(context)
        try #require(history.count == 4)
        #expect(history.map(\.author) == ["editor", "editor", "editor", nil])
        #expect(history.allSatisfy { $0.storeIdentifier == kept.persistentModelID.storeIdentifier })
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.token < $1.token })
        let inserted = history[0].changes.compactMap { change -> PersistentIdentifier? in
            if case .insert(let insert) = change { return insert.changedPersistentIdentifier }
            return nil
        }
        #expect(inserted.count == 2)
        #expect(Set(inserted) == [kept.persistentModelID, gone.persistentModelID])
        try #require(history[1].changes.count == 1)
        guard case .update(let change) = history[1].changes[0], let update = change as? DefaultHistoryUpdate<PGNote>
        else {
            Issue.record("the second transaction is no update")
            return
        }
        #expect(update.changedPersistentIdentifier == kept.persistentModelID)
        #expect(update.updatedAttributes.contains(\.body))
        #expect(!update.updatedAttributes.contains(\.title))
        try #require(history[2].changes.count == 1)
        guard case .delete(let change) = history[2].changes[0], let delete = change as? DefaultHistoryDelete<PGNote>
        else {
            Issue.record("the third transaction is no deletion")
            return
        }
        #expect(delete.changedPersistentIdentifier == gone.persistentModelID)
        #expect(delete.tombstone[\.title] as? String == "gone")
    }

    @Test(arguments: TestedStore.available)
    func historyAfterATokenIsReadAlikeByAReopenedStore(store: TestedStore) throws {
        let location = try store.makeLocation()
        let context = ModelContext(try store.container(PGNote.self, at: location))
        for number in 0..<3 {
            context.insert(PGNote(title: "note \(number)", body: ""))
            try context.save()
        }
        let all = try history(context)
        try #require(all.count == 3)
        let reopened = ModelContext(try store.container(PGNote.self, at: location))
        #expect(try history(reopened).map(\.token) == all.map(\.token))
        #expect(try history(reopened, after: all[0].token).map(\.token) == all.dropFirst().map(\.token))
        #expect(try history(reopened, after: all[2].token).isEmpty)
    }

    @Test(arguments: TestedStore.available)
    func deletingHistoryUpToATokenKeepsTheLaterTransactions(store: TestedStore) throws {
        let container = try store.makeContainer(PGNote.self)
        let context = ModelContext(container)
        for number in 0..<3 {
            context.insert(PGNote(title: "note \(number)", body: ""))
            try context.save()
        }
        let all = try history(context)
        try #require(all.count == 3)
        var upToSecond = HistoryDescriptor<Transaction>()
        let second = all[1].token
        upToSecond.predicate = #Predicate { $0.token <= second }
        try context.deleteHistory(upToSecond)
        #expect(try history(ModelContext(container)).map(\.token) == [all[2].token])
        // The models stay.
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<PGNote>()) == 3)
        // Reading after the last deleted token works; after an older one, part of the answer is gone.
        #expect(try history(context, after: second).map(\.token) == [all[2].token])
        #expect(throws: SwiftDataError.historyTokenExpired) { try history(context, after: all[0].token) }
        // Tokens are never given again.
        context.insert(PGNote(title: "later", body: ""))
        try context.save()
        #expect(try #require(try history(context).last).token > all[2].token)
    }

    @Test(arguments: TestedStore.available)
    func authorsSortsAndLimitsSelectTransactions(store: TestedStore) throws {
        let container = try store.makeContainer(PGNote.self)
        let app = ModelContext(container)
        app.author = "app"
        let widget = ModelContext(container)
        widget.author = "widget"
        for (context, title) in [(app, "a"), (widget, "b"), (app, "c"), (widget, "d")] {
            context.insert(PGNote(title: title, body: ""))
            try context.save()
        }
        let fromWidget = try app.fetchHistory(
            HistoryDescriptor<Transaction>(predicate: #Predicate { $0.author == "widget" }))
        #expect(fromWidget.map(\.author) == ["widget", "widget"])
        var latest = HistoryDescriptor<Transaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        latest.fetchLimit = 1
        let newest = try app.fetchHistory(latest)
        #expect(newest.count == 1)
        #expect(newest.first?.transactionIdentifier == (try history(app)).last?.transactionIdentifier)
        #expect(newest.first?.author == "widget")
    }

    @Test(arguments: TestedStore.available)
    func cascadesAndBatchDeletesAppearAsDeletes(store: TestedStore) throws {
        let container = try store.makeContainer(PGTrip.self, PGNote.self)
        let context = ModelContext(container)
        let trip = PGTrip(code: "T", name: "tour")
        context.insert(trip)
        trip.stops = [PGStop(title: "x", order: 0), PGStop(title: "y", order: 1)]
        for number in 0..<3 { context.insert(PGNote(title: "batch \(number)", body: "")) }
        try context.save()
        let inserted = try #require(try history(context).last)
        #expect(inserted.changes.count == 6)
        let stopIdentifiers = Set(trip.stops.map(\.persistentModelID))

        context.delete(trip)
        try context.save()
        let cascade = try #require(try history(context).last)
        let deleted = Set(
            cascade.changes.compactMap { change -> PersistentIdentifier? in
                if case .delete(let delete) = change { return delete.changedPersistentIdentifier }
                return nil
            })
        #expect(deleted == stopIdentifiers.union([trip.persistentModelID]))

        // A fresh context deletes rows it never loaded, and their tombstones keep the preserved values.
        let batch = ModelContext(container)
        try batch.delete(model: PGNote.self, where: #Predicate { $0.title.starts(with: "batch") })
        try batch.save()
        let last = try #require(try history(batch).last)
        let tombstones = last.changes.compactMap { change -> String? in
            guard case .delete(let delete) = change, let note = delete as? DefaultHistoryDelete<PGNote> else {
                return nil
            }
            return note.tombstone[\.title] as? String
        }
        #expect(Set(tombstones) == ["batch 0", "batch 1", "batch 2"])
        #expect(last.changes.count == 3)
    }

    @Test(arguments: TestedStore.available)
    func deletingEveryModelDeletesTheHistoryAndKeepsItsTokens(store: TestedStore) throws {
        let container = try store.makeContainer(PGNote.self)
        let context = ModelContext(container)
        context.insert(PGNote(title: "one", body: ""))
        try context.save()
        let before = try #require(try history(context).last)
        container.deleteAllData()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<PGNote>()) == 0)
        let after = ModelContext(container)
        after.insert(PGNote(title: "two", body: ""))
        try after.save()
        let history = try history(after)
        #expect(history.count == 1)
        #expect(try #require(history.first).token > before.token)
    }
}
