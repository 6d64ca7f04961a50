import Foundation
import JSONStoreKit
import SwiftData
import Testing

@Model
final class Cabin {
    var name: String
    var beds: Int
    var opened: Date
    @Attribute(.unique) var code: String?
    @Relationship(deleteRule: .cascade, inverse: \CabinGuest.cabin) var guests: [CabinGuest] = []

    init(name: String, beds: Int, opened: Date) {
        self.name = name
        self.beds = beds
        self.opened = opened
    }
}

@Model
final class CabinGuest {
    var name: String
    var cabin: Cabin?

    init(name: String) { self.name = name }
}

@Model
final class Lodge {
    var name: String
    init(name: String) { self.name = name }
}

@ModelActor
actor CabinKeeper {
    func addCabin(named name: String, beds: Int) throws {
        modelContext.insert(Cabin(name: name, beds: beds, opened: .distantPast))
        try modelContext.save()
    }

    func names() throws -> [String] {
        try modelContext.fetch(FetchDescriptor<Cabin>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    }
}

/// `JSONStore` through `ModelContainer` and `ModelContext`: the same code as with SwiftData's own store.
@Suite struct JSONStoreContainerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-json-\(UUID().uuidString)")
    var fileURL: URL { directory.appendingPathComponent("cabins.json") }
    let schema = Schema([Cabin.self, CabinGuest.self])

    private func makeContainer() throws -> ModelContainer {
        try ModelContainer(
            for: schema, configurations: [JSONStoreConfiguration(name: "Cabins", schema: schema, fileURL: fileURL)])
    }

    private func seed() throws {
        let context = ModelContext(try makeContainer())
        let pines = Cabin(name: "Pines", beds: 4, opened: Date(timeIntervalSinceReferenceDate: 100))
        context.insert(pines)
        pines.guests = [CabinGuest(name: "Aino"), CabinGuest(name: "Eero")]
        context.insert(Cabin(name: "Birch", beds: 2, opened: Date(timeIntervalSinceReferenceDate: 300)))
        context.insert(Cabin(name: "Aspen", beds: 6, opened: Date(timeIntervalSinceReferenceDate: 200)))
        try context.save()
    }

    @Test func insertedModelsAreFetchedAfterReopeningWithPredicateAndSort() throws {
        try seed()
        let context = ModelContext(try makeContainer())
        let roomy = try context.fetch(
            FetchDescriptor<Cabin>(predicate: #Predicate { $0.beds > 3 }, sortBy: [SortDescriptor(\.name)]))
        #expect(roomy.map(\.name) == ["Aspen", "Pines"])
        let byOpening = try context.fetch(FetchDescriptor<Cabin>(sortBy: [SortDescriptor(\.opened, order: .reverse)]))
        #expect(byOpening.map(\.name) == ["Birch", "Aspen", "Pines"])
        #expect(try context.fetchCount(FetchDescriptor<Cabin>()) == 3)
        var page = FetchDescriptor<Cabin>(sortBy: [SortDescriptor(\.name)])
        page.fetchOffset = 1
        page.fetchLimit = 1
        #expect(try context.fetch(page).map(\.name) == ["Birch"])
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<Cabin>(predicate: #Predicate { $0.beds > 3 }))
        #expect(Set(identifiers) == Set(roomy.map(\.persistentModelID)))
        #expect(roomy.allSatisfy { $0.persistentModelID.storeIdentifier == "Cabins" })
    }

    @Test func relationshipsLoadBothWaysAndCascade() throws {
        try seed()
        let context = ModelContext(try makeContainer())
        let pines = try #require(
            try context.fetch(FetchDescriptor<Cabin>(predicate: #Predicate { $0.name == "Pines" })).first)
        #expect(pines.guests.map(\.name).sorted() == ["Aino", "Eero"])
        let aino = try #require(
            try context.fetch(FetchDescriptor<CabinGuest>(predicate: #Predicate { $0.name == "Aino" })).first)
        #expect(aino.cabin?.name == "Pines")
        // A predicate through the relationship runs in memory on the models.
        let guestsOfRoomyCabins = try context.fetch(
            FetchDescriptor<CabinGuest>(predicate: #Predicate { ($0.cabin?.beds ?? 0) > 3 }))
        #expect(guestsOfRoomyCabins.count == 2)

        context.delete(pines)
        try context.save()
        let reopened = ModelContext(try makeContainer())
        #expect(try reopened.fetchCount(FetchDescriptor<CabinGuest>()) == 0)
        #expect(
            try reopened.fetch(FetchDescriptor<Cabin>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "Aspen", "Birch",
            ])
    }

    @Test func updatesAndDeletionsPersist() throws {
        try seed()
        do {
            let context = ModelContext(try makeContainer())
            let cabins = try context.fetch(FetchDescriptor<Cabin>(sortBy: [SortDescriptor(\.name)]))
            cabins[0].beds = 8
            cabins[0].code = "A-1"
            context.delete(cabins[1])
            try context.save()
            #expect(!context.hasChanges)
        }
        let context = ModelContext(try makeContainer())
        let cabins = try context.fetch(FetchDescriptor<Cabin>(sortBy: [SortDescriptor(\.name)]))
        #expect(cabins.map(\.name) == ["Aspen", "Pines"])
        #expect(cabins[0].beds == 8)
        #expect(cabins[0].code == "A-1")
        #expect(cabins[1].guests.count == 2)
    }

    @Test func deletingWithAPredicateRemovesTheMatchingModels() throws {
        try seed()
        let context = ModelContext(try makeContainer())
        try context.delete(model: Cabin.self, where: #Predicate { $0.beds < 3 })
        try context.save()
        let names = try ModelContext(try makeContainer()).fetch(FetchDescriptor<Cabin>()).map(\.name).sorted()
        #expect(names == ["Aspen", "Pines"])
    }

    @Test func theStoresErrorReachesTheCallerOfSaveAndTheContextKeepsItsChanges() throws {
        try seed()
        let container = try makeContainer()
        let context = ModelContext(container)
        let birch = try #require(
            try context.fetch(FetchDescriptor<Cabin>(predicate: #Predicate { $0.name == "Birch" })).first)
        // Another container (another program) deletes Birch from the file.
        let other = ModelContext(try makeContainer())
        try other.delete(model: Cabin.self, where: #Predicate { $0.name == "Birch" })
        try other.save()
        let before = try Data(contentsOf: fileURL)

        birch.beds = 3
        let larch = Cabin(name: "Larch", beds: 1, opened: .distantFuture)
        context.insert(larch)
        #expect(throws: JSONStoreError.self) { try context.save() }
        // Nothing was written, and nothing is taken for saved: both changes are still pending.
        #expect(try Data(contentsOf: fileURL) == before)
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.contains { $0 === larch })
        #expect(context.changedModelsArray.contains { $0 === birch })

        // Dropping the edit of the vanished cabin lets the insert through, once.
        context.delete(birch)
        try context.save()
        try context.save()
        let names = try ModelContext(try makeContainer()).fetch(FetchDescriptor<Cabin>()).map(\.name).sorted()
        #expect(names == ["Aspen", "Larch", "Pines"])
    }

    @Test func aModelActorReadsAndWritesTheStore() async throws {
        try seed()
        let keeper = CabinKeeper(modelContainer: try makeContainer())
        try await keeper.addCabin(named: "Cedar", beds: 2)
        #expect(try await keeper.names() == ["Aspen", "Birch", "Cedar", "Pines"])
    }

    @Test func aRefusalOfTheCustomStoreLeavesSwiftDatasStoreAsItWas() throws {
        // Cabins in the JSON file, lodges in SwiftData's store: one save writes both.
        let sqlite = ModelConfiguration(
            "Lodges", schema: Schema([Lodge.self]), url: directory.appendingPathComponent("lodges.store"))
        let json = JSONStoreConfiguration(name: "Cabins", schema: schema, fileURL: fileURL)
        let container = try ModelContainer(
            for: Schema([Cabin.self, CabinGuest.self, Lodge.self]), configurations: [sqlite, json])
        let context = ModelContext(container)
        let stale = Cabin(name: "Stale", beds: 1, opened: .distantPast)
        context.insert(stale)
        try context.save()
        // Another program empties the file.
        try JSONStore(json, migrationPlan: nil).erase()

        stale.beds = 2
        context.insert(Lodge(name: "Kelo"))
        #expect(throws: JSONStoreError.self) { try context.save() }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Lodge>()) == 0)
        #expect(context.hasChanges)

        // Without the stale edit, both stores take their part.
        context.delete(stale)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Lodge>()).map(\.name) == ["Kelo"])
    }
}

@Model
final class CabinReview {
    var stars: Int
    var cabin: Cabin?
    init(stars: Int) { self.stars = stars }
}

/// A store that keeps snapshots in memory and answers every fetch with every snapshot it holds, of any entity.
final class EverythingStore: DataStore {
    typealias Configuration = EverythingStoreConfiguration
    typealias Snapshot = DefaultSnapshot
    let configuration: EverythingStoreConfiguration
    let identifier: String
    let schema: Schema
    nonisolated(unsafe) static var snapshots: [String: [PersistentIdentifier: DefaultSnapshot]] = [:]
    // nonisolated(unsafe): the tests that use it run their contexts on one thread, and the container calls a store
    // one call at a time.

    init(_ configuration: EverythingStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.identifier = configuration.name
        self.schema = configuration.schema ?? Schema()
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        return DataStoreFetchResult(
            descriptor: request.descriptor, fetchedSnapshots: Array((Self.snapshots[identifier] ?? [:]).values))
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            remapped[snapshot.persistentIdentifier] = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
        }
        var held = Self.snapshots[identifier] ?? [:]
        for snapshot in request.inserted {
            let permanent = remapped[snapshot.persistentIdentifier]!
            held[permanent] = snapshot.copy(persistentIdentifier: permanent, remappedIdentifiers: remapped)
        }
        for snapshot in request.updated {
            held[snapshot.persistentIdentifier] = snapshot.copy(
                persistentIdentifier: snapshot.persistentIdentifier, remappedIdentifiers: remapped)
        }
        for snapshot in request.deleted { held[snapshot.persistentIdentifier] = nil }
        Self.snapshots[identifier] = held
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped)
    }
}

struct EverythingStoreConfiguration: DataStoreConfiguration {
    typealias Store = EverythingStore
    var name: String
    var schema: Schema?
}

/// What the container refuses or guards against in a custom store.
@Suite struct CustomStoreGuardTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-json-\(UUID().uuidString)")

    @Test func aRelationshipBetweenACustomStoreAndAnotherStoreIsRefused() throws {
        let schema = Schema([Cabin.self, CabinGuest.self])
        let json = JSONStoreConfiguration(
            name: "Cabins", schema: schema, fileURL: directory.appendingPathComponent("cabins.json"))
        let sqlite = ModelConfiguration(
            "Reviews", schema: Schema([CabinReview.self]), url: directory.appendingPathComponent("reviews.store"))
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(
                for: Schema([Cabin.self, CabinGuest.self, CabinReview.self]), configurations: [json, sqlite])
        }
        #expect(error == .loadIssueModelContainer)
        #expect(error?.description.contains("CabinReview.cabin") == true)
    }

    @Test func snapshotsOfAnotherEntityAreNotTakenForTheFetchedOnes() throws {
        let name = "everything-\(UUID().uuidString)"
        let container = try ModelContainer(
            for: Schema([Cabin.self, CabinGuest.self]), configurations: [EverythingStoreConfiguration(name: name)])
        let context = ModelContext(container)
        let pines = Cabin(name: "Pines", beds: 4, opened: .distantPast)
        context.insert(pines)
        pines.guests = [CabinGuest(name: "Aino"), CabinGuest(name: "Eero")]
        try context.save()

        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Cabin>()).map(\.name) == ["Pines"])
        #expect(try fresh.fetchCount(FetchDescriptor<Cabin>()) == 1)
        #expect(try fresh.fetchIdentifiers(FetchDescriptor<CabinGuest>()).count == 2)
        #expect(
            try fresh.fetch(FetchDescriptor<CabinGuest>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "Aino", "Eero",
            ])
    }

    @Test func aModelOfAnEntityTheStoreDoesNotHoldIsRefused() throws {
        let schema = Schema([Cabin.self, CabinGuest.self])
        let container = try ModelContainer(
            for: schema,
            configurations: [
                JSONStoreConfiguration(
                    name: "Cabins", schema: schema, fileURL: directory.appendingPathComponent("cabins.json"))
            ])
        let context = ModelContext(container)
        context.insert(Lodge(name: "Kelo"))
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("cabins.json").path))
    }
}
