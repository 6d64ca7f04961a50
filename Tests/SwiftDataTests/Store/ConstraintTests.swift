import Foundation
import SwiftData
import Testing

@Model
final class Contact {
    #Unique<Contact>([\.givenName, \.familyName])
    #Index<Contact>([\.familyName], [\.city, \.familyName])

    var givenName: String
    var familyName: String
    var city: String
    var phone: String

    init(givenName: String, familyName: String, city: String = "", phone: String = "") {
        self.givenName = givenName
        self.familyName = familyName
        self.city = city
        self.phone = phone
    }
}

@Model
final class Passport {
    var number: String
    @Relationship(.unique) var holder: Holder?
    init(number: String) { self.number = number }
}

@Model
final class Holder {
    var name: String
    @Relationship(inverse: \Passport.holder) var passports: [Passport] = []
    init(name: String) { self.name = name }
}

@Suite struct ConstraintTests {
    /// Each inserted model finds the stored row with its unique value, whatever else the save inserts; text
    /// compares as Swift's `String` does, so a decomposed "café" finds the precomposed one, and quotes,
    /// backslashes and control characters are values like any other.
    @Test func insertsFindTheirStoredTwins() throws {
        let container = try makeInMemoryContainer(TripTag.self)
        let writer = ModelContext(container)
        let stored = ["caf\u{E9}", "rome", "say \"hi\" \\ bye", "oslo"].map { TripTag(label: $0) }
        for tag in stored { writer.insert(tag) }
        try writer.save()
        let storedIDs = stored.map(\.persistentModelID)

        let context = ModelContext(container)
        let inserted = ["cafe\u{301}", "rome", "say \"hi\" \\ bye", "new1", "new2"].map { TripTag(label: $0) }
        for tag in inserted { context.insert(tag) }
        try context.save()
        #expect(inserted.prefix(3).map(\.persistentModelID) == Array(storedIDs.prefix(3)))
        #expect(!storedIDs.contains(inserted[3].persistentModelID))
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<TripTag>()) == 6)

        let more = ["tab\there", "oslo", "new1"].map { TripTag(label: $0) }
        for tag in more { context.insert(tag) }
        try context.save()
        #expect(more[1].persistentModelID == storedIDs[3])
        #expect(more[2].persistentModelID == inserted[3].persistentModelID)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<TripTag>()) == 7)
    }

    @Test func compoundUniqueConstraintsUpsertOnTheWholeGroup() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(Contact.self, at: directory.store())
        let context = ModelContext(container)
        context.insert(Contact(givenName: "Aino", familyName: "Virtanen", phone: "1"))
        context.insert(Contact(givenName: "Aino", familyName: "Korhonen", phone: "2"))
        try context.save()
        context.insert(Contact(givenName: "Aino", familyName: "Virtanen", phone: "3"))
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Contact>(sortBy: [SortDescriptor(\.familyName)]))
        #expect(stored.map(\.phone) == ["2", "3"])
        let entity = try #require(container.schema.entity(for: Contact.self))
        #expect(entity.uniquenessConstraints == [["givenName", "familyName"]])
        #expect(entity.indices == [["familyName"], ["city", "familyName"]])
    }

    @Test func indexesAreCreatedInTheStore() throws {
        let directory = try TemporaryDirectory()
        _ = try makeContainer(Contact.self, at: directory.store())
        let indexes = try sqliteRows(
            directory.store(),
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Contact' AND sql IS NOT NULL ORDER BY name"
        )
        #expect(
            indexes == [
                "Contact_city_familyName_index", "Contact_familyName_index", "Contact_givenName_familyName_unique",
            ]
        )
    }

    @Test func uniqueToOneRelationshipsUpsertOnTheRelatedModel() throws {
        let container = try makeInMemoryContainer(Passport.self)
        let context = ModelContext(container)
        let holder = Holder(name: "Aino")
        let old = Passport(number: "A1")
        old.holder = holder
        context.insert(old)
        try context.save()
        let renewed = Passport(number: "B2")
        renewed.holder = holder
        context.insert(renewed)
        try context.save()
        let passports = try ModelContext(container).fetch(FetchDescriptor<Passport>())
        #expect(passports.map(\.number) == ["B2"])
    }
}

@Model
final class ReplacedCode {
    @Attribute(.unique) var code: String
    var version: Int

    init(code: String, version: Int) {
        self.code = code
        self.version = version
    }
}

/// Deleting a model and inserting one with the same unique values in one save replaces it.
@Suite struct ReplaceInOneSaveTests {
    @Test func aModelDeletedAndOneWithItsUniqueValuesInsertedInOneSaveLeavesTheNewOne() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(ReplacedCode.self, at: directory.store())
        let context = ModelContext(container)
        let old = ReplacedCode(code: "a", version: 1)
        context.insert(old)
        try context.save()
        context.delete(old)
        context.insert(ReplacedCode(code: "a", version: 2))
        try context.save()

        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<ReplacedCode>()).map(\.version) == [2])
        let last = try #require(
            try fresh.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil)).last)
        #expect(last.changes.count == 2)
        #expect(last.changes.contains { if case .delete = $0 { true } else { false } })
        #expect(last.changes.contains { if case .insert = $0 { true } else { false } })
    }
}
