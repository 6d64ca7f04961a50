import Foundation
import SwiftData
import Testing

/// `DefaultStore`: the SQLite store behind the snapshot interface of `DataStore`.
@Suite struct DefaultStoreTests {
    /// A store file holding three trips, saved through a container, and a `DefaultStore` opened on it.
    private func makeStore() throws -> (store: DefaultStore, trips: [Trip], directory: TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let configuration = ModelConfiguration(schema: Schema([Trip.self]), url: directory.store())
        let container = try ModelContainer(for: Schema([Trip.self]), configurations: [configuration])
        let context = ModelContext(container)
        let trips = [
            Trip(name: "Lisbon", destination: "Portugal", budget: 900),
            Trip(name: "Kyoto", destination: "Japan", budget: 2_500),
            Trip(name: "Oslo", destination: "Norway", budget: 1_800),
        ]
        for trip in trips { context.insert(trip) }
        trips[0].bucketList = [BucketListItem(title: "Tram 28")]
        try context.save()
        return (try DefaultStore(configuration, migrationPlan: nil), trips, directory)
    }

    private var editingState: EditingState { EditingState(author: "tests") }

    @Test func aModelConfigurationsStoreIsTheDefaultStore() {
        #expect(ModelConfiguration.Store.self == DefaultStore.self)
    }

    @Test func itFetchesSnapshotsWithThePredicateAndSortApplied() throws {
        let (store, trips, _) = try makeStore()
        let descriptor = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.budget > 1_000 }, sortBy: [SortDescriptor(\.name)])
        let result = try store.fetch(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
        #expect(result.fetchedSnapshots.map(\.persistentIdentifier) == [trips[1], trips[2]].map(\.persistentModelID))
        #expect(store.identifier == trips[0].persistentModelID.storeIdentifier)
        #expect(store.name == "test")
        #expect(store.schema.entities.map(\.name).contains("Trip"))

        let request = DataStoreFetchRequest(descriptor: descriptor, editingState: editingState)
        #expect(try store.fetchCount(request) == 2)
        #expect(try store.fetchIdentifiers(request) == [trips[1], trips[2]].map(\.persistentModelID))
    }

    @Test func itReadsSnapshotsByIdentifier() throws {
        let (store, trips, _) = try makeStore()
        let lisbon = trips[0].persistentModelID
        let missing = try PersistentIdentifier.identifier(
            for: store.identifier, entityName: "Trip", primaryKey: 999)
        let snapshots = try store.cachedSnapshots(for: [lisbon, missing], editingState: editingState)
        #expect(Array(snapshots.keys) == [lisbon])
        let encoded = try JSONEncoder().encode(try #require(snapshots[lisbon]))
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["name"] as? String == "Lisbon")
        #expect((object["bucketList"] as? [Any])?.count == 1)
    }

    @Test func itDeletesInBatchesAndErases() throws {
        let (store, _, _) = try makeStore()
        try store.delete(
            DataStoreBatchDeleteRequest<Trip>(predicate: #Predicate { $0.budget < 1_000 }, editingState: editingState))
        let all = DataStoreFetchRequest(descriptor: FetchDescriptor<Trip>(), editingState: editingState)
        #expect(try store.fetchCount(all) == 2)
        try store.erase()
        #expect(try store.fetchCount(all) == 0)
    }

    @Test func savingSnapshotsIsNotImplementedYet() throws {
        let (store, trips, _) = try makeStore()
        var related: [PersistentIdentifier: any BackingData] = [:]
        let snapshot = DefaultSnapshot(from: trips[0].persistentBackingData, relatedBackingDatas: &related)
        let request = DataStoreSaveChangesRequest(
            inserted: [], updated: [snapshot], deleted: [], editingState: editingState)
        #expect(throws: DataStoreError.unsupportedFeature) { try store.save(request) }
    }
}
