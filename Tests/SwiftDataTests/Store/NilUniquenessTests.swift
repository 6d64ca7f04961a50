import Foundation
import SwiftData
import Testing

@Model
final class Badge {
    @Attribute(.unique) var code: String?
    var owner: String

    init(code: String?, owner: String) {
        self.code = code
        self.owner = owner
    }
}

@Model
final class Seat {
    #Unique<Seat>([\.row, \.number])

    var row: String
    var number: Int?
    var holder: String

    init(row: String, number: Int?, holder: String) {
        self.row = row
        self.number = number
        self.holder = holder
    }
}

/// `nil` in a uniqueness constraint equals nothing, as in SQL's `UNIQUE` and Core Data: models whose constrained
/// values include `nil` are never merged into one row, within one save or across saves.
@Suite struct NilUniquenessTests {
    @Test func nilUniqueAttributesNeverMerge() throws {
        let container = try makeInMemoryContainer(Badge.self)
        let context = ModelContext(container)
        context.insert(Badge(code: nil, owner: "ann"))
        context.insert(Badge(code: nil, owner: "bob"))
        context.insert(Badge(code: "A1", owner: "cid"))
        try context.save()
        context.insert(Badge(code: nil, owner: "dan"))
        context.insert(Badge(code: "A1", owner: "eve"))
        try context.save()

        let stored = try ModelContext(container).fetch(FetchDescriptor<Badge>(sortBy: [SortDescriptor(\.owner)]))
        #expect(stored.map(\.owner) == ["ann", "bob", "dan", "eve"])
        #expect(stored.map(\.code) == [nil, nil, nil, "A1"])
    }

    @Test func nilMembersOfACompoundConstraintNeverMerge() throws {
        let container = try makeInMemoryContainer(Seat.self)
        let context = ModelContext(container)
        context.insert(Seat(row: "A", number: nil, holder: "ann"))
        context.insert(Seat(row: "A", number: nil, holder: "bob"))
        context.insert(Seat(row: "A", number: 1, holder: "cid"))
        try context.save()
        context.insert(Seat(row: "A", number: nil, holder: "dan"))
        context.insert(Seat(row: "A", number: 1, holder: "eve"))
        try context.save()

        let stored = try ModelContext(container).fetch(FetchDescriptor<Seat>(sortBy: [SortDescriptor(\.holder)]))
        #expect(stored.map(\.holder) == ["ann", "bob", "dan", "eve"])
    }

    @Test func nilUniqueToOneRelationshipsNeverMerge() throws {
        let container = try makeInMemoryContainer(Passport.self)
        let context = ModelContext(container)
        let holder = Holder(name: "ann")
        let first = Passport(number: "1")
        let second = Passport(number: "2")
        context.insert(holder)
        context.insert(first)
        context.insert(second)
        try context.save()
        context.insert(Passport(number: "3"))
        try context.save()

        let numbers = try ModelContext(container).fetch(FetchDescriptor<Passport>(sortBy: [SortDescriptor(\.number)]))
        #expect(numbers.map(\.number) == ["1", "2", "3"])
        // A holder still takes over the row of the passport that has it.
        first.holder = holder
        try context.save()
        let replacement = Passport(number: "1b")
        replacement.holder = holder
        context.insert(replacement)
        try context.save()
        let afterUpsert = try ModelContext(container).fetch(
            FetchDescriptor<Passport>(sortBy: [SortDescriptor(\.number)]))
        #expect(afterUpsert.map(\.number) == ["1b", "2", "3"])
    }

    /// Two new passports of one new holder, inserted in one save: the holder has no key yet, which is not `nil`,
    /// so the second takes the first's row, as with a stored holder.
    @Test func insertsOfOneNewTargetStillMerge() throws {
        let container = try makeInMemoryContainer(Passport.self)
        let context = ModelContext(container)
        let first = Passport(number: "1")
        let second = Passport(number: "2")
        context.insert(first)
        context.insert(second)
        let holder = Holder(name: "ann")
        first.holder = holder
        second.holder = holder
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Passport>())
        #expect(stored.map(\.number) == ["2"])
    }
}
