import Foundation
import SwiftData
import Testing

@Model
final class PGCountry {
    @Attribute(.unique) var code: String
    var name: String

    init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}

@Model
final class PGPerson {
    var name: String

    init(name: String) {
        self.name = name
    }
}

@Model
final class PGProfile {
    #Unique<PGProfile>([\.person])
    var handle: String
    var person: PGPerson?

    init(handle: String, person: PGPerson?) {
        self.handle = handle
        self.person = person
    }
}

@Model
final class PGVenue {
    #Unique<PGVenue>([\.place])
    var place: PGPlace
    var label: String

    init(place: PGPlace, label: String) {
        self.place = place
        self.label = label
    }
}

/// An inserted model whose unique values match a stored row updates that row (Apple's upsert), on each store.
@Suite struct StoreUniqueTests {
    @Test(arguments: TestedStore.available)
    func aUniqueValueSavedAgainUpdatesItsRow(store: TestedStore) throws {
        let location = try store.makeLocation()
        let container = try store.container(PGTrip.self, at: location)
        let first = ModelContext(container)
        let original = PGTrip(code: "SAME", name: "first", notes: "kept?")
        first.insert(original)
        try first.save()
        let second = ModelContext(container)
        let again = PGTrip(code: "SAME", name: "second", budget: 7)
        second.insert(again)
        second.insert(PGTrip(code: "OTHER", name: "other"))
        try second.save()
        #expect(again.persistentModelID == original.persistentModelID)

        let reopened = ModelContext(try store.container(PGTrip.self, at: location))
        let trips = try reopened.fetch(FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.code)]))
        #expect(trips.map(\.code) == ["OTHER", "SAME"])
        #expect(trips.last?.name == "second")
        #expect(trips.last?.budget == 7)
        #expect(trips.last?.notes == nil)
    }

    @Test(arguments: TestedStore.available)
    func twoInsertsOfOneUniqueAttributeInOneSaveAreOneRow(store: TestedStore) throws {
        let container = try store.makeContainer(PGCountry.self)
        let context = ModelContext(container)
        context.insert(PGCountry(code: "NO", name: "Norge"))
        context.insert(PGCountry(code: "SE", name: "Sverige"))
        context.insert(PGCountry(code: "NO", name: "Norway"))
        try context.save()
        let countries = try ModelContext(container).fetch(FetchDescriptor<PGCountry>(sortBy: [SortDescriptor(\.code)]))
        #expect(countries.map(\.code) == ["NO", "SE"])
        #expect(countries.map(\.name) == ["Norway", "Sverige"])
    }

    @Test(arguments: TestedStore.available)
    func aCompoundUniqueConstraintUpsertsOnTheWholeGroup(store: TestedStore) throws {
        let container = try store.makeContainer(PGContact.self)
        let context = ModelContext(container)
        context.insert(PGContact(given: "Aino", family: "Virtanen", phone: "1"))
        context.insert(PGContact(given: "Aino", family: "Korhonen", phone: "2"))
        context.insert(PGContact(given: "Eino", family: "Virtanen", phone: "3"))
        try context.save()
        let again = ModelContext(container)
        again.insert(PGContact(given: "Aino", family: "Virtanen", phone: "4"))
        try again.save()
        let stored = try ModelContext(container).fetch(
            FetchDescriptor<PGContact>(sortBy: [SortDescriptor(\.phone)]))
        #expect(stored.map(\.phone) == ["2", "3", "4"])
        #expect(stored.map(\.given) == ["Aino", "Eino", "Aino"])
    }

    @Test(arguments: TestedStore.available)
    func canonicallyEquivalentUniqueStringsAreOneRow(store: TestedStore) throws {
        let container = try store.makeContainer(PGTrip.self)
        let first = ModelContext(container)
        first.insert(PGTrip(code: "caf\u{E9}", name: "precomposed"))
        try first.save()
        let second = ModelContext(container)
        second.insert(PGTrip(code: "cafe\u{301}", name: "decomposed"))
        second.insert(PGTrip(code: "Caf\u{E9}", name: "capital"))
        try second.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(stored.map(\.name) == ["capital", "decomposed"])
    }

    @Test(arguments: TestedStore.available)
    func aUniqueToOneNamingAModelInsertedLaterInTheSaveUpserts(store: TestedStore) throws {
        let container = try store.makeContainer(PGProfile.self, PGPerson.self)
        let context = ModelContext(container)
        let person = PGPerson(name: "Ada")
        let first = PGProfile(handle: "first", person: nil)
        let second = PGProfile(handle: "second", person: nil)
        context.insert(first)
        context.insert(second)
        first.person = person
        second.person = person
        try context.save()
        let profiles = try ModelContext(container).fetch(FetchDescriptor<PGProfile>())
        #expect(profiles.count == 1)
        #expect(profiles.first?.handle == "second")
        #expect(profiles.first?.person?.name == "Ada")
    }

    @Test(arguments: TestedStore.available)
    func aUniqueCompositeAttributeComparesEveryField(store: TestedStore) throws {
        let container = try store.makeContainer(PGVenue.self)
        let context = ModelContext(container)
        context.insert(PGVenue(place: PGPlace(city: "Oslo", latitude: 59.9), label: "one"))
        context.insert(PGVenue(place: PGPlace(city: "Oslo", latitude: 60.0), label: "two"))
        try context.save()
        let again = ModelContext(container)
        again.insert(PGVenue(place: PGPlace(city: "Oslo", latitude: 59.9), label: "three"))
        try again.save()
        let venues = try ModelContext(container).fetch(FetchDescriptor<PGVenue>(sortBy: [SortDescriptor(\.label)]))
        #expect(venues.map(\.label) == ["three", "two"])
    }
}
