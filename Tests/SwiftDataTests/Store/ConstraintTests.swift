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
