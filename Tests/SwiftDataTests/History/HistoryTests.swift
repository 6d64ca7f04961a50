import Foundation
import Testing

@testable import SwiftData

@Model
final class HistoryTrip {
    var name: String
    var destination: String
    @Attribute(.preserveValueOnDeletion) var bookingReference: String
    @Attribute(.preserveValueOnDeletion) var note: String?
    @Relationship(deleteRule: .cascade, inverse: \HistoryStop.trip) var stops: [HistoryStop] = []

    init(name: String, destination: String = "", bookingReference: String = "", note: String? = nil) {
        self.name = name
        self.destination = destination
        self.bookingReference = bookingReference
        self.note = note
    }
}

@Model
final class HistoryStop {
    var place: String
    var trip: HistoryTrip?

    init(place: String) { self.place = place }
}

/// `fetchHistory(_:)` and `deleteHistory(_:)` over what saves recorded.
@Suite struct HistoryTests {
    typealias Transaction = DefaultHistoryTransaction

    func history(_ context: ModelContext, _ predicate: Predicate<Transaction>? = nil) throws -> [Transaction] {
        try context.fetchHistory(HistoryDescriptor<Transaction>(predicate: predicate))
    }

    func inserts<M: PersistentModel>(_ transaction: Transaction, _: M.Type) -> [DefaultHistoryInsert<M>] {
        transaction.changes.compactMap { if case .insert(let c) = $0 { c as? DefaultHistoryInsert<M> } else { nil } }
    }

    func updates<M: PersistentModel>(_ transaction: Transaction, _: M.Type) -> [DefaultHistoryUpdate<M>] {
        transaction.changes.compactMap { if case .update(let c) = $0 { c as? DefaultHistoryUpdate<M> } else { nil } }
    }

    func deletes<M: PersistentModel>(_ transaction: Transaction, _: M.Type) -> [DefaultHistoryDelete<M>] {
        transaction.changes.compactMap { if case .delete(let c) = $0 { c as? DefaultHistoryDelete<M> } else { nil } }
    }

    func changeIdentifier(_ change: HistoryChange) -> Int64? {
        switch change {
        case .insert(let insert): insert.changeIdentifier as? Int64
        case .update(let update): update.changeIdentifier as? Int64
        case .delete(let delete): delete.changeIdentifier as? Int64
        }
    }

    @Test func eachSaveRecordsOneTransactionWithItsInsertsUpdatesAndDeletes() throws {
        let container = try makeInMemoryContainer(HistoryTrip.self, HistoryStop.self)
        let context = ModelContext(container)
        context.author = "app"
        let paris = HistoryTrip(name: "Paris")
        let rome = HistoryTrip(name: "Rome")
        context.insert(paris)
        context.insert(rome)
        try context.save()
        paris.destination = "France"
        context.delete(rome)
        try context.save()
        #expect(!context.hasChanges)
        try context.save()  // nothing to save: no transaction

        let transactions = try history(context)
        try #require(transactions.count == 2)
        let (first, second) = (transactions[0], transactions[1])
        #expect(first.author == "app")
        #expect(first.storeIdentifier == container.stores[0].identifier)
        #expect(first.token < second.token)
        #expect(first.transactionIdentifier < second.transactionIdentifier)
        #expect(first.timestamp <= second.timestamp)
        #expect(first.processIdentifier == String(ProcessInfo.processInfo.processIdentifier))
        #expect(
            Set(inserts(first, HistoryTrip.self).map(\.changedPersistentIdentifier))
                == [paris.persistentModelID, rome.persistentModelID])
        #expect(first.changes.count == 2)

        let updated = updates(second, HistoryTrip.self)
        #expect(updated.map(\.changedPersistentIdentifier) == [paris.persistentModelID])
        #expect(updated.first?.updatedAttributes.count == 1)
        #expect(updated.first?.containsAttribute(\HistoryTrip.destination) == true)
        #expect(updated.first?.containsAttribute(\HistoryTrip.name) == false)
        #expect(deletes(second, HistoryTrip.self).map(\.changedPersistentIdentifier) == [rome.persistentModelID])
        let identifiers = second.changes.compactMap(changeIdentifier)
        #expect(identifiers.count == 2)
        #expect(identifiers == identifiers.sorted())
        #expect(first.changes.map(\.changedPersistentIdentifier).count == 2)
    }

    @Test func aDeletionKeepsThePreservedValuesInItsTombstone() throws {
        let context = ModelContext(try makeInMemoryContainer(HistoryTrip.self, HistoryStop.self))
        let trip = HistoryTrip(name: "Oslo", destination: "Norway", bookingReference: "XK42", note: nil)
        let other = HistoryTrip(name: "Bergen", bookingReference: "QQ1", note: "window seat")
        context.insert(trip)
        context.insert(other)
        try context.save()
        context.delete(trip)
        context.delete(other)
        try context.save()
        let deleted = try #require(history(context).last.map { deletes($0, HistoryTrip.self) })
        try #require(deleted.count == 2)
        let oslo = try #require(deleted.first { $0.changedPersistentIdentifier == trip.persistentModelID })
        #expect(oslo.tombstone[\.bookingReference] as? String == "XK42")
        #expect(oslo.tombstone[\.note] == nil)
        // Attributes not declared with .preserveValueOnDeletion are not kept.
        #expect(oslo.tombstone[\.destination] == nil)
        #expect(oslo.tombstone[\.name] == nil)
        #expect(Array(oslo.tombstone).count == 1)
        let bergen = try #require(deleted.first { $0.changedPersistentIdentifier == other.persistentModelID })
        #expect(bergen.tombstone[\.note] as? String == "window seat")
        #expect(Array(bergen.tombstone).compactMap { $0 as? String }.sorted() == ["QQ1", "window seat"])
    }

    @Test func aModelWithoutPreservedAttributesHasAnEmptyTombstone() throws {
        let context = ModelContext(try makeInMemoryContainer(HistoryTrip.self, HistoryStop.self))
        let stop = HistoryStop(place: "Lyon")
        context.insert(stop)
        try context.save()
        context.delete(stop)
        try context.save()
        let deleted = try #require(history(context).last.map { deletes($0, HistoryStop.self) }?.first)
        #expect(Array(deleted.tombstone).isEmpty)
        #expect(deleted.tombstone[\.place] == nil)
    }

    @Test func aTokenSelectsTheTransactionsAfterItAndSurvivesJSON() throws {
        let context = ModelContext(try makeInMemoryContainer(HistoryTrip.self, HistoryStop.self))
        for name in ["a", "b", "c", "d"] {
            context.insert(HistoryTrip(name: name))
            try context.save()
        }
        let all = try history(context)
        try #require(all.count == 4)
        let saved = try JSONEncoder().encode(all[1].token)
        let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: saved)
        #expect(token == all[1].token)
        let after = try history(context, #Predicate { $0.token > token })
        #expect(after.map(\.transactionIdentifier) == [all[2], all[3]].map(\.transactionIdentifier))
        let upTo = try history(context, #Predicate { $0.token <= token })
        #expect(upTo.count == 2)
    }

    @Test func authorsAndLimitsAndSortsSelectTransactions() throws {
        let container = try makeInMemoryContainer(HistoryTrip.self, HistoryStop.self)
        let app = ModelContext(container)
        app.author = "app"
        let widget = ModelContext(container)
        widget.author = "widget"
        for (context, name) in [(app, "a"), (widget, "b"), (app, "c"), (widget, "d")] {
            context.insert(HistoryTrip(name: name))
            try context.save()
        }
        let fromWidget = try history(app, #Predicate { $0.author == "widget" })
        #expect(fromWidget.count == 2)
        #expect(fromWidget.allSatisfy { $0.author == "widget" })
        let notApp = try history(app, #Predicate { $0.author != "app" })
        #expect(notApp.count == 2)

        // The latest transaction, as Apple's sample asks for it.
        var latest = HistoryDescriptor<Transaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        latest.fetchLimit = 1
        let newest = try app.fetchHistory(latest)
        #expect(newest.count == 1)
        #expect(newest.first?.transactionIdentifier == (try history(app)).last?.transactionIdentifier)
        #expect(newest.first?.author == "widget")
    }

    @Test func deletingHistoryExpiresTheTokensBeforeIt() throws {
        let context = ModelContext(try makeInMemoryContainer(HistoryTrip.self, HistoryStop.self))
        for name in ["a", "b", "c", "d"] {
            context.insert(HistoryTrip(name: name))
            try context.save()
        }
        let all = try history(context)
        let (first, processed) = (all[0].token, all[2].token)
        try context.deleteHistory(HistoryDescriptor<Transaction>(predicate: #Predicate { $0.token <= processed }))
        #expect(try history(context).map(\.transactionIdentifier) == [all[3].transactionIdentifier])
        // Fetching after the last processed token still works; after an older one, part of the answer is gone.
        #expect(try history(context, #Predicate { $0.token > processed }).count == 1)
        #expect(throws: SwiftDataError.historyTokenExpired) {
            try history(context, #Predicate { $0.token > first })
        }
        // Tokens are never given again: the next save's token is after every deleted one.
        context.insert(HistoryTrip(name: "e"))
        try context.save()
        let newest = try #require(try history(context).last)
        #expect(newest.token > processed)
        #expect(newest.transactionIdentifier > all[3].transactionIdentifier)
    }

    @Test func cascadesAndBatchDeletesAppearAsDeletesWithTombstones() throws {
        let context = ModelContext(try makeInMemoryContainer(HistoryTrip.self, HistoryStop.self))
        let trip = HistoryTrip(name: "Tour", bookingReference: "T1")
        context.insert(trip)
        trip.stops = [HistoryStop(place: "x"), HistoryStop(place: "y")]
        for number in 0..<5 { context.insert(HistoryTrip(name: "batch \(number)", bookingReference: "B\(number)")) }
        try context.save()
        let stopIDs = Set(trip.stops.map(\.persistentModelID))

        context.delete(trip)
        try context.save()
        let cascade = try #require(try history(context).last)
        #expect(Set(deletes(cascade, HistoryStop.self).map(\.changedPersistentIdentifier)) == stopIDs)
        #expect(deletes(cascade, HistoryTrip.self).first?.tombstone[\.bookingReference] as? String == "T1")

        // A fresh context deletes rows it never loaded.
        let batch = ModelContext(context.container)
        try batch.delete(model: HistoryTrip.self, where: #Predicate { $0.name.starts(with: "batch") })
        try batch.save()
        let deleted = try #require(try history(batch).last.map { deletes($0, HistoryTrip.self) })
        #expect(deleted.count == 5)
        #expect(
            Set(deleted.compactMap { $0.tombstone[\.bookingReference] as? String }) == ["B0", "B1", "B2", "B3", "B4"])
    }

    @Test func aFailedSaveRecordsNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let context = ModelContext(try makeContainer(HistoryTrip.self, HistoryStop.self, at: url))
        let trip = HistoryTrip(name: "kept")
        context.insert(trip)
        try context.save()
        // Another context deletes the row; this context's edit of it then fails to save.
        let other = ModelContext(context.container)
        try other.delete(model: HistoryTrip.self)
        try other.save()
        trip.destination = "lost"
        #expect(throws: (any Error).self) { try context.save() }
        let transactions = try history(ModelContext(context.container))
        #expect(transactions.count == 2)
        #expect(transactions.allSatisfy { updates($0, HistoryTrip.self).isEmpty })
    }

    @Test func historyIsKeptAcrossReopeningAndReadOnlyStoresReadIt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(HistoryTrip.self, HistoryStop.self, at: url))
            context.insert(HistoryTrip(name: "a"))
            try context.save()
        }
        let reader = ModelContext(try makeContainer(HistoryTrip.self, HistoryStop.self, at: url, allowsSave: false))
        let transactions = try history(reader)
        #expect(transactions.count == 1)
        #expect(inserts(transactions[0], HistoryTrip.self).count == 1)
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try reader.deleteHistory(HistoryDescriptor<Transaction>(predicate: nil))
        }
    }

    @Test func anotherProcesssSavesAreInTheHistory() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let context = ModelContext(try makeContainer(Tally.self, at: url))
        context.insert(Tally(writer: "here", number: 0))
        try context.save()

        let process = try runStoreWriter(at: url, writer: "there", count: 3)
        #expect(process.terminationStatus == 0)

        let transactions = try history(context)
        #expect(transactions.count == 4)
        let theirs = transactions.filter { $0.processIdentifier == String(process.processIdentifier) }
        #expect(theirs.count == 3)
        #expect(theirs.allSatisfy { $0.bundleIdentifier == "StoreWriterHelper" })
        #expect(theirs.allSatisfy { inserts($0, Tally.self).count == 1 })
    }
}
