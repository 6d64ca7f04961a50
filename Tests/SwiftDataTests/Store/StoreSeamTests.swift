import Foundation
import SwiftData
import Testing

@Model
class SeamJourney {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \SeamSight.journey) var sights: [SeamSight] = []
    @Relationship(inverse: nil) var tags: [SeamTag] = []
    init(name: String) { self.name = name }
}

@Model
class SeamBusinessJourney: SeamJourney {
    var company: String
    init(name: String, company: String) {
        self.company = company
        super.init(name: name)
    }
}

@Model
final class SeamSight {
    var title: String
    var journey: SeamJourney?
    init(title: String) { self.title = title }
}

@Model
final class SeamTag {
    var label: String
    init(label: String) { self.label = label }
}

@Model
final class SeamReading {
    var value: Int?
    init(value: Int?) { self.value = value }
}

/// What the store interface must keep: the models of a subclass find their relationships, refusals of a store stay
/// inside the fetch layer, and identifiers name each row's own class.
@Suite struct StoreSeamTests {
    private func seeded() throws -> ModelContainer {
        let container = try makeInMemoryContainer(
            SeamJourney.self, SeamBusinessJourney.self, SeamSight.self, SeamTag.self)
        let context = ModelContext(container)
        let business = SeamBusinessJourney(name: "Oulu", company: "Acme")
        let plain = SeamJourney(name: "Tampere")
        context.insert(business)
        context.insert(plain)
        business.sights = [SeamSight(title: "Market"), SeamSight(title: "Castle")]
        plain.sights = [SeamSight(title: "Tower")]
        business.tags = [SeamTag(label: "work"), SeamTag(label: "north")]
        plain.tags = [SeamTag(label: "home")]
        try context.save()
        return container
    }

    @Test func aSubclassModelLoadsItsInheritedRelationships() throws {
        let container = try seeded()
        let business = try #require(try ModelContext(container).fetch(FetchDescriptor<SeamBusinessJourney>()).first)
        #expect(business.sights.map(\.title).sorted() == ["Castle", "Market"])
        #expect(business.tags.map(\.label).sorted() == ["north", "work"])
    }

    @Test func prefetchingThroughTheBaseFillsEveryClassOfTheHierarchy() throws {
        let container = try seeded()
        var descriptor = FetchDescriptor<SeamJourney>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.sights, \.tags]
        let journeys = try ModelContext(container).fetch(descriptor)
        #expect(journeys.map(\.name) == ["Oulu", "Tampere"])
        #expect(journeys.map { $0.sights.count } == [2, 1])
        #expect(journeys.map { $0.tags.count } == [2, 1])
    }

    @Test func deletingASubclassModelCascadesToItsRelatedModels() throws {
        let container = try seeded()
        let context = ModelContext(container)
        context.delete(try #require(try context.fetch(FetchDescriptor<SeamBusinessJourney>()).first))
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<SeamSight>()).map(\.title) == ["Tower"])
    }

    @Test func identifiersNameEachRowsOwnClass() throws {
        let container = try seeded()
        let context = ModelContext(container)
        let identifiers = Set(try context.fetchIdentifiers(FetchDescriptor<SeamJourney>()))
        let models = try context.fetch(FetchDescriptor<SeamJourney>())
        #expect(identifiers == Set(models.map(\.persistentModelID)))
    }

    @Test func enumerateContinuesInMemoryWhenTheStoreStopsAtARowOnlySwiftCanDecide() throws {
        let container = try makeInMemoryContainer(SeamReading.self)
        let context = ModelContext(container)
        for value in [5, 7, 9] { context.insert(SeamReading(value: value)) }
        try context.save()
        // A row the force unwrap meets with nil, after the first batch: Swift's evaluation throws for it.
        context.insert(SeamReading(value: nil))
        try context.save()
        var seen: [Int] = []
        let predicate = #Predicate<SeamReading> { $0.value! > 6 }
        // Swift's own evaluation of the predicate throws for that row: so does enumerate, with a SwiftDataError,
        // after the models before it.
        #expect(throws: SwiftDataError.self) {
            try context.enumerate(FetchDescriptor(predicate: predicate), batchSize: 2) { seen.append($0.value ?? -1) }
        }
        // Strict mode gives the typed error, never an internal one.
        var strict = FetchDescriptor(predicate: predicate)
        strict.allowsInMemoryEvaluation = false
        #expect(throws: SwiftDataError.self) {
            try context.enumerate(strict, batchSize: 2) { _ in }
        }
    }
}
