import Foundation
import Testing

@testable import SwiftData

/// A model with one unique attribute and no relationships: the store writes it with one upsert statement.
@Model
final class HNBadge {
    @Attribute(.unique) var label: String
    var count: Int

    init(label: String, count: Int) {
        self.label = label
        self.count = count
    }
}

/// A model with a unique pair of attributes: the store looks up the stored row before writing.
@Model
final class HNSeat {
    #Unique<HNSeat>([\.row, \.number])
    var row: String
    var number: Int
    var holder: String

    init(row: String, number: Int, holder: String) {
        self.row = row
        self.number = number
        self.holder = holder
    }
}

/// What history records for rows that SQL changes on a save's behalf: rows that an insert with taken unique values
/// overwrites.
@Suite struct HistoryStoreSideChangesTests {
    typealias Transaction = DefaultHistoryTransaction

    func lastTransaction(_ context: ModelContext) throws -> Transaction {
        try #require(try context.fetchHistory(HistoryDescriptor<Transaction>()).last)
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

    // MARK: - Upserts

    @Test func anInsertThatTakesOverAStoredUniqueRowIsRecordedAsItsUpdate() throws {
        let container = try makeInMemoryContainer(HNBadge.self)
        let context = ModelContext(container)
        context.insert(HNBadge(label: "gold", count: 1))
        try context.save()
        let stored = try #require(
            inserts(try lastTransaction(context), HNBadge.self).first?.changedPersistentIdentifier)

        let other = ModelContext(container)
        other.insert(HNBadge(label: "gold", count: 2))
        try other.save()
        let transaction = try lastTransaction(other)
        #expect(inserts(transaction, HNBadge.self).isEmpty)
        let updated = updates(transaction, HNBadge.self)
        #expect(updated.map(\.changedPersistentIdentifier) == [stored])
        #expect(updated.first?.containsAttribute(\.count) == true)
        #expect(transaction.changes.count == 1)
    }

    @Test func anUpsertFindsTheStoredRowWhateverTheConnectionInsertedLast() throws {
        let container = try makeInMemoryContainer(HNBadge.self, HNSeat.self)
        let context = ModelContext(container)
        context.insert(HNBadge(label: "gold", count: 1))
        try context.save()
        let stored = try #require(
            inserts(try lastTransaction(context), HNBadge.self).first?.changedPersistentIdentifier)
        // Another table's insert and the history's own leave SQLite's last inserted row ID at values the badge
        // table's next key can equal.
        context.insert(HNSeat(row: "A", number: 1, holder: "x"))
        try context.save()

        let other = ModelContext(container)
        let badge = HNBadge(label: "gold", count: 2)
        other.insert(badge)
        try other.save()
        #expect(badge.persistentModelID == stored)
        let transaction = try lastTransaction(other)
        #expect(inserts(transaction, HNBadge.self).isEmpty)
        #expect(updates(transaction, HNBadge.self).map(\.changedPersistentIdentifier) == [stored])
        #expect(try ModelContext(container).fetch(FetchDescriptor<HNBadge>()).map(\.count) == [2])
    }

    @Test func upsertsOfOneRowInOneSaveRecordOneChange() throws {
        let container = try makeInMemoryContainer(HNBadge.self, HNSeat.self)
        let context = ModelContext(container)
        // Twins in the save that creates the row: one insert.
        context.insert(HNBadge(label: "gold", count: 1))
        context.insert(HNBadge(label: "gold", count: 2))
        context.insert(HNSeat(row: "A", number: 1, holder: "x"))
        context.insert(HNSeat(row: "A", number: 1, holder: "y"))
        try context.save()
        var transaction = try lastTransaction(context)
        #expect(inserts(transaction, HNBadge.self).count == 1)
        #expect(inserts(transaction, HNSeat.self).count == 1)
        #expect(transaction.changes.count == 2)

        // Twins of a stored row: one update.
        let other = ModelContext(container)
        other.insert(HNBadge(label: "gold", count: 3))
        other.insert(HNBadge(label: "gold", count: 4))
        other.insert(HNSeat(row: "A", number: 1, holder: "z"))
        other.insert(HNSeat(row: "A", number: 1, holder: "w"))
        other.insert(HNSeat(row: "B", number: 1, holder: "v"))
        try other.save()
        transaction = try lastTransaction(other)
        #expect(inserts(transaction, HNBadge.self).isEmpty)
        #expect(updates(transaction, HNBadge.self).count == 1)
        #expect(updates(transaction, HNSeat.self).count == 1)
        #expect(updates(transaction, HNSeat.self).first?.containsAttribute(\.holder) == true)
        #expect(inserts(transaction, HNSeat.self).count == 1)
        #expect(transaction.changes.count == 3)
    }
}
