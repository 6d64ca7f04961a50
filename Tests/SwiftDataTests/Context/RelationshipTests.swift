import Foundation
import SwiftData
import Testing

@Suite struct RelationshipTests {
    @Test func settingEitherSideUpdatesTheOther() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let trip = Trip(name: "Rome", destination: "Italy")
        context.insert(trip)
        let colosseum = BucketListItem(title: "Colosseum")
        colosseum.trip = trip
        #expect(trip.bucketList.map(\.title) == ["Colosseum"])
        #expect(colosseum.modelContext === context)
        let pantheon = BucketListItem(title: "Pantheon")
        trip.bucketList.append(pantheon)
        #expect(pantheon.trip === trip)
        trip.bucketList.removeAll { $0 === colosseum }
        #expect(colosseum.trip == nil)
    }

    @Test func moveBetweenParentsLeavesOnlyTheNewOne() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let first = Trip(name: "A", destination: "X")
        let second = Trip(name: "B", destination: "Y")
        context.insert(first)
        context.insert(second)
        let item = BucketListItem(title: "Walk")
        first.bucketList.append(item)
        second.bucketList.append(item)
        #expect(first.bucketList.isEmpty)
        #expect(item.trip === second)
    }

    @Test func linksSurviveSaveAndReopen() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Trip.self, at: directory.store()))
            let trip = Trip(name: "Rome", destination: "Italy")
            trip.bucketList = [BucketListItem(title: "Colosseum"), BucketListItem(title: "Pantheon")]
            trip.livingAccommodation = LivingAccommodation(name: "Grand Hotel", address: "Via 1")
            trip.tags = [TripTag(label: "city"), TripTag(label: "history")]
            context.insert(trip)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Trip.self, at: directory.store()))
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.bucketList.map(\.title).sorted() == ["Colosseum", "Pantheon"])
        #expect(trip.livingAccommodation?.name == "Grand Hotel")
        #expect(trip.livingAccommodation?.trip === trip)
        #expect(trip.tags.map(\.label).sorted() == ["city", "history"])
        let city = try #require(
            try context.fetch(FetchDescriptor<TripTag>(predicate: #Predicate { $0.label == "city" })).first)
        #expect(city.trips.first === trip)
    }

    @Test func containerInfersRelatedTypes() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let names = Set(container.schema.entities.map(\.name))
        #expect(names == ["Trip", "BucketListItem", "LivingAccommodation", "TripTag"])
        let bucketList = try #require(container.schema.entity(for: Trip.self)?.relationshipsByName["bucketList"])
        #expect(bucketList.inverseName == "trip")
        #expect(bucketList.deleteRule == .cascade)
        #expect(!bucketList.isToOneRelationship)
    }

    @Test func cascadeDeletesOwnedModelsAndNullifyDetaches() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: "Rome", destination: "Italy")
        trip.bucketList = [BucketListItem(title: "Colosseum")]
        trip.livingAccommodation = LivingAccommodation(name: "Hotel", address: "Via 1")
        let tag = TripTag(label: "city")
        trip.tags = [tag]
        context.insert(trip)
        try context.save()
        context.delete(trip)
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
        #expect(try fresh.fetchCount(FetchDescriptor<LivingAccommodation>()) == 0)
        let storedTag = try #require(try fresh.fetch(FetchDescriptor<TripTag>()).first)
        #expect(storedTag.trips.isEmpty)
        #expect(tag.trips.isEmpty)
    }

    @Test func uniqueAttributeInsertUpdatesTheStoredModel() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        context.insert(TripTag(label: "city"))
        try context.save()
        let duplicate = TripTag(label: "city")
        context.insert(duplicate)
        context.insert(TripTag(label: "beach"))
        context.insert(TripTag(label: "beach"))
        try context.save()
        let fresh = ModelContext(container)
        #expect(
            try fresh.fetch(FetchDescriptor<TripTag>(sortBy: [SortDescriptor(\.label)])).map(\.label) == [
                "beach", "city",
            ])
        let city = try #require(
            try context.fetch(FetchDescriptor<TripTag>(predicate: #Predicate { $0.label == "city" })).first)
        #expect(city.persistentModelID == duplicate.persistentModelID)
    }

    @Test func modelsFromAnotherContextCannotBeLinked() async throws {
        await #expect(processExitsWith: .failure) {
            let container = try makeInMemoryContainer(Trip.self)
            let one = ModelContext(container)
            let other = ModelContext(container)
            let trip = Trip(name: "A", destination: "X")
            let item = BucketListItem(title: "B")
            one.insert(trip)
            other.insert(item)
            item.trip = trip
        }
    }
}

@Model
final class Folder {
    var name: String
    var parent: Folder?
    @Relationship(deleteRule: .cascade, inverse: \Folder.parent)
    var children: [Folder] = []

    init(name: String, parent: Folder? = nil) {
        self.name = name
        self.parent = parent
    }
}

@Suite struct SelfReferentialRelationshipTests {
    @Test func treeKeepsBothSidesAndCascadesThroughLevels() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Folder.self, at: directory.store()))
            let root = Folder(name: "root")
            context.insert(root)
            let docs = Folder(name: "docs", parent: root)
            let notes = Folder(name: "notes")
            notes.parent = docs
            #expect(root.children.map(\.name) == ["docs"])
            #expect(docs.children.map(\.name) == ["notes"])
            #expect(notes.modelContext === context)
            context.insert(Folder(name: "other"))
            try context.save()
        }
        let container = try makeContainer(Folder.self, at: directory.store())
        let context = ModelContext(container)
        let root = try #require(
            try context.fetch(FetchDescriptor<Folder>(predicate: #Predicate { $0.name == "root" })).first)
        #expect(root.children.first?.children.first?.name == "notes")
        #expect(root.children.first?.parent === root)
        context.delete(root)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Folder>()).map(\.name) == ["other"])
    }
}
