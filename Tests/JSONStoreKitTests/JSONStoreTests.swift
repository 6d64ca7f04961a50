import Foundation
import JSONStoreKit
import Testing

@testable import SwiftData

@Model
final class JSONTrip {
    var name: String
    var startDate: Date
    @Relationship(deleteRule: .cascade, inverse: \JSONStop.trip) var stops: [JSONStop] = []

    init(name: String, startDate: Date) {
        self.name = name
        self.startDate = startDate
    }
}

@Model
final class JSONStop {
    var place: String
    var trip: JSONTrip?

    init(place: String) { self.place = place }
}

/// `JSONStore`'s own logic, on snapshots, without a container.
@Suite struct JSONStoreTests {
    let fileURL = FileManager.default.temporaryDirectory
        .appendingPathComponent("swiftdata-json-\(UUID().uuidString)")
        .appendingPathComponent("trips.json")
    let editingState = EditingState(author: "tests")

    private func makeStore() throws -> JSONStore {
        try JSONStore(
            JSONStoreConfiguration(name: "Trips", schema: Schema([JSONTrip.self]), fileURL: fileURL),
            migrationPlan: nil)
    }

    private func snapshot(of model: some PersistentModel) -> DefaultSnapshot {
        var related: [PersistentIdentifier: any BackingData] = [:]
        return DefaultSnapshot(from: model.persistentBackingData, relatedBackingDatas: &related)
    }

    private func fetch<T: PersistentModel>(
        _ type: T.Type, from store: JSONStore, _ descriptor: FetchDescriptor<T> = FetchDescriptor<T>()
    ) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        try store.fetch(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
    }

    private func save(
        _ store: JSONStore, inserted: [DefaultSnapshot] = [], updated: [DefaultSnapshot] = [],
        deleted: [DefaultSnapshot] = []
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        try store.save(
            DataStoreSaveChangesRequest(
                inserted: inserted, updated: updated, deleted: deleted, editingState: editingState))
    }

    /// A trip with two stops, inserted into a context of an in-memory store and not saved: temporary identifiers.
    private func makeTrip() throws -> (trip: JSONTrip, context: ModelContext) {
        let container = try ModelContainer(
            for: JSONTrip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let trip = JSONTrip(name: "Lisbon", startDate: Date(timeIntervalSinceReferenceDate: 1_000.5))
        context.insert(trip)
        trip.stops = [JSONStop(place: "Alfama"), JSONStop(place: "Belém")]
        return (trip, context)
    }

    /// Saves a trip and its stops as inserted models, and returns the result.
    private func saveTrip(_ store: JSONStore) throws -> (DataStoreSaveChangesResult<DefaultSnapshot>, JSONTrip) {
        let (trip, _) = try makeTrip()
        let result = try save(store, inserted: [snapshot(of: trip)] + trip.stops.map { snapshot(of: $0) })
        return (result, trip)
    }

    @Test func saveGivesInsertedModelsPermanentIdentifiersAndRemapsTheirRelationships() throws {
        let store = try makeStore()
        let (result, trip) = try saveTrip(store)
        #expect(result.storeIdentifier == "Trips")
        #expect(result.remappedIdentifiers.count == 3)
        let tripID = try #require(result.remappedIdentifiers[trip.persistentModelID])
        let stopIDs = try trip.stops.map { try #require(result.remappedIdentifiers[$0.persistentModelID]) }
        for identifier in [tripID] + stopIDs {
            #expect(identifier.storeIdentifier == "Trips")
            #expect(!identifier.isTemporary)
        }
        #expect(Set(result.snapshotsToReregister.keys) == Set([tripID] + stopIDs))

        let saved = try #require(result.snapshotsToReregister[tripID])
        guard case .toMany(let stops)? = saved.values["stops"] else {
            Issue.record("the trip's stops are missing")
            return
        }
        #expect(stops == stopIDs)
        let stop = try #require(result.snapshotsToReregister[stopIDs[0]])
        guard case .toOne(let back)? = stop.values["trip"] else {
            Issue.record("the stop's trip is missing")
            return
        }
        #expect(back == tripID)
    }

    @Test func aReopenedStoreFetchesWhatWasSaved() throws {
        let (result, trip) = try saveTrip(try makeStore())
        let tripID = try #require(result.remappedIdentifiers[trip.persistentModelID])

        let reopened = try makeStore()
        let trips = try fetch(JSONTrip.self, from: reopened)
        #expect(trips.fetchedSnapshots.map(\.persistentIdentifier) == [tripID])
        #expect(trips.relatedSnapshots.count == 2)
        let stops = try fetch(JSONStop.self, from: reopened)
        #expect(stops.fetchedSnapshots.count == 2)

        let models = DefaultSnapshot.makeModels(trips.fetchedSnapshots + stops.fetchedSnapshots)
        let copy = try #require(models[tripID] as? JSONTrip)
        #expect(copy.name == "Lisbon")
        #expect(copy.startDate == Date(timeIntervalSinceReferenceDate: 1_000.5))
        #expect(copy.stops.map(\.place) == ["Alfama", "Belém"])
        #expect(copy.stops.allSatisfy { $0.trip === copy })
    }

    @Test func updatesAndDeletionsAreWritten() throws {
        let store = try makeStore()
        let (result, trip) = try saveTrip(store)
        let tripID = try #require(result.remappedIdentifiers[trip.persistentModelID])
        let saved =
            try fetch(JSONTrip.self, from: store).fetchedSnapshots + fetch(JSONStop.self, from: store).fetchedSnapshots
        let models = DefaultSnapshot.makeModels(saved)
        let copy = try #require(models[tripID] as? JSONTrip)
        copy.name = "Lisboa"
        let removed = copy.stops.removeLast()

        _ = try save(store, updated: [snapshot(of: copy)], deleted: [snapshot(of: removed)])
        let reopened = try makeStore()
        #expect(try fetch(JSONTrip.self, from: reopened).fetchedSnapshots.count == 1)
        let request = DataStoreFetchRequest(descriptor: FetchDescriptor<JSONStop>(), editingState: editingState)
        #expect(try reopened.fetchCount(request) == 1)
        #expect(try reopened.fetchIdentifiers(request) == [copy.stops[0].persistentModelID])
        let cached = try reopened.cachedSnapshots(for: [tripID], editingState: editingState)
        guard case .attribute(let name)? = cached[tripID]?.values["name"] else {
            Issue.record("the trip's name is missing")
            return
        }
        #expect(name as? String == "Lisboa")
    }

    @Test func aFailedSaveLeavesTheFileAsItWas() throws {
        let store = try makeStore()
        _ = try saveTrip(store)
        let before = try Data(contentsOf: fileURL)
        let (unsaved, _) = try makeTrip()
        // An update of a model the file does not hold: saved by another store, or deleted since.
        let elsewhere = try PersistentIdentifier.identifier(for: "Trips", entityName: "JSONTrip", primaryKey: UUID())
        let stranger = snapshot(of: unsaved).copy(persistentIdentifier: elsewhere)
        #expect(throws: JSONStoreError.self) {
            try save(store, inserted: [snapshot(of: unsaved)], updated: [stranger])
        }
        #expect(try Data(contentsOf: fileURL) == before)
    }

    @Test func fetchesWithAPredicateOrASortAreLeftToSwiftData() throws {
        let store = try makeStore()
        _ = try saveTrip(store)
        #expect(throws: DataStoreError.preferInMemoryFilter) {
            try fetch(JSONTrip.self, from: store, FetchDescriptor(predicate: #Predicate { $0.name == "Lisbon" }))
        }
        #expect(throws: DataStoreError.preferInMemorySort) {
            try fetch(JSONTrip.self, from: store, FetchDescriptor(sortBy: [SortDescriptor(\.name)]))
        }
    }

    @Test func offsetAndLimitApplyInTheOrderOfSaving() throws {
        let store = try makeStore()
        let container = try ModelContainer(
            for: JSONTrip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let trips = ["A", "B", "C", "D"].map { JSONTrip(name: $0, startDate: .distantPast) }
        for trip in trips { context.insert(trip) }
        let result = try save(store, inserted: trips.map { snapshot(of: $0) })
        var descriptor = FetchDescriptor<JSONTrip>()
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 2
        let fetched = try fetch(JSONTrip.self, from: store, descriptor).fetchedSnapshots.map(\.persistentIdentifier)
        #expect(fetched == [trips[1], trips[2]].map { result.remappedIdentifiers[$0.persistentModelID] })
    }

    @Test func eraseRemovesEveryModel() throws {
        let store = try makeStore()
        _ = try saveTrip(store)
        try store.erase()
        #expect(!FileManager.default.fileExists(atPath: fileURL.path))
        #expect(try fetch(JSONTrip.self, from: store).fetchedSnapshots.isEmpty)
        try store.erase()
    }

    @Test func theConfigurationNamesAFile() throws {
        let configuration = JSONStoreConfiguration(name: "Trips", fileURL: URL(string: "https://example.com/t.json")!)
        #expect(throws: JSONStoreError.self) { try configuration.validate() }
        #expect(throws: JSONStoreError.self) { try JSONStore(configuration, migrationPlan: nil) }
        #expect(
            JSONStoreConfiguration(name: "Trips", fileURL: fileURL)
                == JSONStoreConfiguration(name: "Trips", fileURL: fileURL))
    }
}
