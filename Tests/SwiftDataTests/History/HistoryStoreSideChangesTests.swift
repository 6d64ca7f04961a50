import Foundation
import Testing

@testable import SwiftData

@Model
final class HNOwner {
    var name: String
    @Relationship(deleteRule: .nullify, inverse: \HNPet.owner) var pets: [HNPet] = []

    init(name: String) { self.name = name }
}

@Model
final class HNPet {
    var name: String
    var owner: HNOwner?

    init(name: String) { self.name = name }
}

@Model
final class HNNote {
    var title: String
    @Relationship(inverse: \HNTag.notes) var tags: [HNTag] = []

    init(title: String) { self.title = title }
}

@Model
final class HNTag {
    var name: String
    var notes: [HNNote] = []

    init(name: String) { self.name = name }
}

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

/// What history records for rows that SQL changes on a save's behalf: rows whose references to a deleted model the
/// store clears, and rows that an insert with taken unique values overwrites.
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

    /// Saves an owner with two pets and returns the pets' identifiers.
    func savedOwnerWithPets(_ container: ModelContainer) throws -> [PersistentIdentifier] {
        let context = ModelContext(container)
        let owner = HNOwner(name: "Ann")
        context.insert(owner)
        owner.pets = [HNPet(name: "Rex"), HNPet(name: "Tom")]
        try context.save()
        return owner.pets.map(\.persistentModelID)
    }

    // MARK: - References cleared by a delete

    @Test func petsWhoseOwnerTheStoreClearsAreRecordedAsUpdated() throws {
        let container = try makeInMemoryContainer(HNOwner.self, HNPet.self)
        let petIDs = try savedOwnerWithPets(container)
        // A fresh context never loads the pets: only the store clears their owner.
        let context = ModelContext(container)
        let owner = try #require(try context.fetch(FetchDescriptor<HNOwner>()).first)
        context.delete(owner)
        try context.save()

        let transaction = try lastTransaction(context)
        #expect(deletes(transaction, HNOwner.self).count == 1)
        let updated = updates(transaction, HNPet.self)
        #expect(updated.count == 2)
        #expect(Set(updated.map(\.changedPersistentIdentifier)) == Set(petIDs))
        #expect(updated.allSatisfy { $0.containsAttribute(\.owner) && $0.updatedAttributes.count == 1 })
        #expect(transaction.changes.count == 3)
        #expect(try ModelContext(container).fetch(FetchDescriptor<HNPet>()).allSatisfy { $0.owner == nil })
    }

    @Test func aPetDeletedInTheSameSaveIsNotAlsoUpdated() throws {
        let container = try makeInMemoryContainer(HNOwner.self, HNPet.self)
        let petIDs = try savedOwnerWithPets(container)
        let context = ModelContext(container)
        try context.delete(model: HNPet.self, where: #Predicate { $0.name == "Rex" })
        let owner = try #require(try context.fetch(FetchDescriptor<HNOwner>()).first)
        context.delete(owner)
        try context.save()

        let transaction = try lastTransaction(context)
        let deletedPets = deletes(transaction, HNPet.self).map(\.changedPersistentIdentifier)
        #expect(deletedPets.count == 1)
        let updated = updates(transaction, HNPet.self).map(\.changedPersistentIdentifier)
        #expect(updated.count == 1)
        #expect(Set(updated + deletedPets) == Set(petIDs))
    }

    @Test func aPetTheContextAlsoChangedHasOneUpdateWithBothProperties() throws {
        let container = try makeInMemoryContainer(HNOwner.self, HNPet.self)
        _ = try savedOwnerWithPets(container)
        let context = ModelContext(container)
        let rex = try #require(
            try context.fetch(FetchDescriptor<HNPet>(predicate: #Predicate { $0.name == "Rex" })).first)
        rex.name = "Rexy"
        let owner = try #require(try context.fetch(FetchDescriptor<HNOwner>()).first)
        context.delete(owner)
        try context.save()

        let updated = updates(try lastTransaction(context), HNPet.self)
        #expect(updated.count == 2)
        let rexUpdates = updated.filter { $0.changedPersistentIdentifier == rex.persistentModelID }
        try #require(rexUpdates.count == 1)
        #expect(rexUpdates[0].containsAttribute(\.name))
        #expect(rexUpdates[0].containsAttribute(\.owner))
        #expect(rexUpdates[0].updatedAttributes.count == 2)
    }

    @Test func linksAJoinTableLosesAreRecordedOnTheOtherSide() throws {
        let container = try makeInMemoryContainer(HNNote.self, HNTag.self)
        do {
            let context = ModelContext(container)
            let (work, home) = (HNTag(name: "work"), HNTag(name: "home"))
            let (plan, list, memo) = (HNNote(title: "plan"), HNNote(title: "list"), HNNote(title: "memo"))
            for model in [plan, list, memo] { context.insert(model) }
            plan.tags = [work, home]
            list.tags = [work]
            memo.tags = [home]
            try context.save()
        }
        // Deleting a tag takes it out of its notes' `tags` (the side whose table holds the links).
        let context = ModelContext(container)
        let work = try #require(
            try context.fetch(FetchDescriptor<HNTag>(predicate: #Predicate { $0.name == "work" })).first)
        context.delete(work)
        try context.save()
        var transaction = try lastTransaction(context)
        let notes = try ModelContext(container).fetch(FetchDescriptor<HNNote>())
        let noteIDs = Dictionary(uniqueKeysWithValues: notes.map { ($0.title, $0.persistentModelID) })
        var updated = updates(transaction, HNNote.self)
        #expect(Set(updated.map(\.changedPersistentIdentifier)) == [noteIDs["plan"], noteIDs["list"]])
        #expect(updated.count == 2)
        #expect(updated.allSatisfy { $0.containsAttribute(\.tags) && $0.updatedAttributes.count == 1 })
        #expect(updates(transaction, HNTag.self).isEmpty)

        // Deleting a note takes it out of its tags' `notes`.
        let other = ModelContext(container)
        try other.delete(model: HNNote.self, where: #Predicate { $0.title == "plan" })
        try other.save()
        transaction = try lastTransaction(other)
        let home = try #require(try other.fetch(FetchDescriptor<HNTag>()).first)
        let tagUpdates = updates(transaction, HNTag.self)
        #expect(tagUpdates.map(\.changedPersistentIdentifier) == [home.persistentModelID])
        #expect(tagUpdates.first?.containsAttribute(\.notes) == true)
        updated = updates(transaction, HNNote.self)
        #expect(updated.isEmpty)
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
