// The shape of WWDC24's "Create a custom data store with SwiftData": a configuration and a store that keeps
// `DefaultSnapshot`s in a JSON file, written against Apple's custom-store API. Every type of that API appears here
// as apps use it.
import Foundation
import SwiftData
import Testing

@Model
final class Expedition {
    var name: String
    var startDate: Date
    @Relationship(deleteRule: .cascade, inverse: \ExpeditionStop.expedition)
    var stops: [ExpeditionStop] = []

    init(name: String, startDate: Date) {
        self.name = name
        self.startDate = startDate
    }
}

@Model
final class ExpeditionStop {
    var place: String
    var expedition: Expedition?

    init(place: String) {
        self.place = place
    }
}

final class JSONStoreConfiguration: DataStoreConfiguration {
    typealias Store = JSONStore

    var name: String
    var schema: Schema?
    var fileURL: URL

    init(name: String, schema: Schema? = nil, fileURL: URL) {
        self.name = name
        self.schema = schema
        self.fileURL = fileURL
    }

    static func == (lhs: JSONStoreConfiguration, rhs: JSONStoreConfiguration) -> Bool {
        lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}

final class JSONStore: DataStore, DataStoreBatching {
    typealias Configuration = JSONStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    var configuration: JSONStoreConfiguration
    var name: String
    var schema: Schema
    var identifier: String

    init(_ configuration: JSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.name = configuration.name
        self.schema = configuration.schema!
        self.identifier = configuration.fileURL.lastPathComponent
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        var remappedIdentifiers = [PersistentIdentifier: PersistentIdentifier]()
        var serializedTrips = try self.read()

        for snapshot in request.inserted {
            let permanentIdentifier = try PersistentIdentifier.identifier(
                for: identifier,
                entityName: snapshot.persistentIdentifier.entityName,
                primaryKey: UUID())
            remappedIdentifiers[snapshot.persistentIdentifier] = permanentIdentifier
        }
        for snapshot in request.inserted {
            let permanentIdentifier = remappedIdentifiers[snapshot.persistentIdentifier]!
            let permanentSnapshot = snapshot.copy(
                persistentIdentifier: permanentIdentifier, remappedIdentifiers: remappedIdentifiers)
            serializedTrips[permanentIdentifier] = permanentSnapshot
        }
        for snapshot in request.updated {
            serializedTrips[snapshot.persistentIdentifier] = snapshot
        }
        for snapshot in request.deleted {
            serializedTrips[snapshot.persistentIdentifier] = nil
        }
        try self.write(serializedTrips)
        return DataStoreSaveChangesResult<DefaultSnapshot>(
            for: self.identifier,
            remappedIdentifiers: remappedIdentifiers,
            snapshotsToReregister: [:])
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot>
    where T: PersistentModel {
        if request.descriptor.predicate != nil {
            throw DataStoreError.preferInMemoryFilter
        } else if request.descriptor.sortBy.count > 0 {
            throw DataStoreError.preferInMemorySort
        }
        let objs = try self.read()
        let snapshots = objs.values.map({ $0 })
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: snapshots, relatedSnapshots: objs)
    }

    func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        guard request.predicate == nil else { throw DataStoreError.invalidPredicate }
        let entityName = Schema.entityName(for: T.self)
        try write(try read().filter { $0.key.entityName != entityName })
    }

    func erase() throws {
        try? FileManager.default.removeItem(at: configuration.fileURL)
    }

    func read() throws -> [PersistentIdentifier: DefaultSnapshot] {
        if FileManager.default.fileExists(atPath: configuration.fileURL.path) {
            let trips = try JSONDecoder().decode(
                [DefaultSnapshot].self, from: try Data(contentsOf: configuration.fileURL))
            var result = [PersistentIdentifier: DefaultSnapshot]()
            trips.forEach { s in
                result[s.persistentIdentifier] = s
            }
            return result
        } else {
            return [:]
        }
    }

    func write(_ trips: [PersistentIdentifier: DefaultSnapshot]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let jsonData = try encoder.encode(trips.values.map({ $0 }))
        try jsonData.write(to: configuration.fileURL)
    }
}

/// Code generic over any store and snapshot, as a library of store helpers would write it.
func identifiers<S: DataStoreSnapshot>(of snapshots: [S]) -> [PersistentIdentifier] {
    snapshots.map(\.persistentIdentifier)
}

func countModels<Store: DataStore, T: PersistentModel>(in store: Store, _ request: DataStoreFetchRequest<T>) throws
    -> Int
{
    store.initializeState(for: request.editingState)
    defer { store.invalidateState(for: request.editingState) }
    _ = try store.cachedSnapshots(for: [], editingState: request.editingState)
    _ = try store.fetchIdentifiers(request)
    return try store.fetchCount(request)
}

func describe(_ error: DataStoreError) -> String {
    switch error {
    case .invalidPredicate: "invalid predicate"
    case .preferInMemoryFilter: "filter in memory"
    case .preferInMemorySort: "sort in memory"
    case .unsupportedFeature: "unsupported"
    }
}

/// Both kinds of configuration array compile next to each other: an array of `ModelConfiguration`s keeps calling
/// `init(for:migrationPlan:configurations:)`, and an array with a custom configuration calls
/// `init(for:configurations:)`.
func makeContainers(
    schema: Schema, modelConfiguration: ModelConfiguration, jsonConfiguration: JSONStoreConfiguration
) throws -> [ModelContainer] {
    var containers = [
        try ModelContainer(for: schema, configurations: [modelConfiguration]),
        try ModelContainer(for: Expedition.self, configurations: modelConfiguration),
    ]
    if let custom = try? ModelContainer(for: schema, configurations: [jsonConfiguration]) { containers.append(custom) }
    if let mixed = try? ModelContainer(for: schema, configurations: [modelConfiguration, jsonConfiguration]) {
        containers.append(mixed)
    }
    if let variadic = try? ModelContainer(for: Expedition.self, configurations: jsonConfiguration) {
        containers.append(variadic)
    }
    return containers
}

let snapshotValue: any DataStoreSnapshotValue = "a value"
let snapshotKeys: [DataStoreSnapshotCodingKey] = [.persistentIdentifier, .modeledProperty("name")]
let defaultStoreType: DefaultStore.Type = ModelConfiguration.Store.self

@Suite struct CustomDataStoreTests {
    private func temporaryJSONURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-compat-\(UUID().uuidString).json")
    }

    @Test func theStoreWritesSnapshotsAndReadsThemBack() throws {
        let schema = Schema([Expedition.self])
        let config = JSONStoreConfiguration(name: "Expeditions", schema: schema, fileURL: temporaryJSONURL())
        let store = try JSONStore(config, migrationPlan: nil)
        defer { try? store.erase() }

        let expedition = Expedition(name: "Svalbard", startDate: Date(timeIntervalSinceReferenceDate: 0))
        let container = try ModelContainer(
            for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        context.insert(expedition)
        expedition.stops.append(ExpeditionStop(place: "Longyearbyen"))

        var related: [PersistentIdentifier: any BackingData] = [:]
        let snapshot = DefaultSnapshot(from: expedition.persistentBackingData, relatedBackingDatas: &related)
        #expect(snapshot.persistentIdentifier == expedition.persistentModelID)
        #expect(related.count == 1)
        let permanent = try PersistentIdentifier.identifier(
            for: store.identifier, entityName: "Expedition", primaryKey: UUID())
        try store.write([permanent: snapshot.copy(persistentIdentifier: permanent)])
        #expect(try Array(store.read().keys) == [permanent])
        #expect(identifiers(of: [snapshot]) == [expedition.persistentModelID])

        #expect(context.editingState.id == context.editingState.id)
        context.author = "compat"
        #expect(context.editingState.author == "compat")
        #expect(describe(.preferInMemorySort) == "sort in memory")
        #expect(snapshotKeys.map(\.stringValue) == ["persistentIdentifier", "name"])
        #expect(defaultStoreType == DefaultStore.self)
        #expect(snapshotValue is String)
    }

    @Test func theContainerTakesTheStoresConfiguration() throws {
        let schema = Schema([Expedition.self])
        let config = JSONStoreConfiguration(name: "Expeditions", schema: schema, fileURL: temporaryJSONURL())
        do {
            let container = try ModelContainer(for: schema, configurations: [config])
            let context = ModelContext(container)
            context.insert(Expedition(name: "Svalbard", startDate: .now))
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<Expedition>()) == 1)
            try container.erase()
        } catch let error as SwiftDataError where error == .loadIssueModelContainer {
            // ModelContainer does not open custom stores yet (issue 17); that these calls compile is what counts.
        }
        let containers = try makeContainers(
            schema: schema, modelConfiguration: ModelConfiguration(isStoredInMemoryOnly: true),
            jsonConfiguration: config)
        #expect(containers.count >= 2)
    }
}
