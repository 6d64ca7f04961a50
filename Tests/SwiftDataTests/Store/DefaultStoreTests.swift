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

    @Test func itSavesInsertedUpdatedAndDeletedSnapshots() throws {
        let (store, trips, directory) = try makeStore()
        var related: [PersistentIdentifier: any BackingData] = [:]
        // A new trip with a new bucket-list item, made in a context of their own and given as snapshots.
        let scratch = ModelContext(
            try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let rome = Trip(name: "Rome", destination: "Italy", budget: 1_200)
        let forum = BucketListItem(title: "Forum")
        scratch.insert(rome)
        rome.bucketList = [forum]
        let inserted = [
            DefaultSnapshot(from: rome.persistentBackingData, relatedBackingDatas: &related),
            DefaultSnapshot(from: forum.persistentBackingData, relatedBackingDatas: &related),
        ]
        // Kyoto's budget changes; Oslo goes.
        trips[1].budget = 3_000
        let updated = DefaultSnapshot(from: trips[1].persistentBackingData, relatedBackingDatas: &related)
        let deleted = DefaultSnapshot(from: trips[2].persistentBackingData, relatedBackingDatas: &related)
        let result = try store.save(
            DataStoreSaveChangesRequest(
                inserted: inserted, updated: [updated], deleted: [deleted], editingState: editingState))

        let romeIdentifier = try #require(result.remappedIdentifiers[rome.persistentModelID])
        #expect(romeIdentifier.storeIdentifier == store.identifier)
        #expect(result.remappedIdentifiers[forum.persistentModelID] != nil)
        let reopened = ModelContext(try makeContainer(Trip.self, at: directory.store()))
        let names = try reopened.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(names.map(\.name) == ["Kyoto", "Lisbon", "Rome"])
        #expect(names[0].budget == 3_000)
        #expect(names[2].bucketList.map(\.title) == ["Forum"])
        #expect(names[2].persistentModelID == romeIdentifier)
    }

    @Test func anUpdateOfAMissingModelWritesNothing() throws {
        let (store, trips, directory) = try makeStore()
        var related: [PersistentIdentifier: any BackingData] = [:]
        let gone = try PersistentIdentifier.identifier(for: store.identifier, entityName: "Trip", primaryKey: 999)
        let stranger = DefaultSnapshot(from: trips[0].persistentBackingData, relatedBackingDatas: &related)
            .copy(persistentIdentifier: gone)
        let scratch = ModelContext(
            try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let rome = Trip(name: "Rome", destination: "Italy", budget: 1_200)
        scratch.insert(rome)
        let inserted = DefaultSnapshot(from: rome.persistentBackingData, relatedBackingDatas: &related)
        #expect(throws: SwiftDataError.self) {
            try store.save(
                DataStoreSaveChangesRequest(
                    inserted: [inserted], updated: [stranger], deleted: [], editingState: editingState))
        }
        #expect(
            try ModelContext(try makeContainer(Trip.self, at: directory.store())).fetchCount(FetchDescriptor<Trip>())
                == 3)
    }
}
