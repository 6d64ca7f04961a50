/// SwiftData's own store, as a ``DataStore``: the SQLite store a ``ModelConfiguration`` describes.
///
/// `ModelContainer` reads and writes its SQLite stores directly, decoding rows straight into models; it does not
/// go through `DefaultStore`. This class opens the store a configuration describes for code that wants the
/// snapshot interface of ``DataStore``:
///
/// ```swift
/// let store = try DefaultStore(ModelConfiguration(schema: Schema([Trip.self]), url: url), migrationPlan: nil)
/// ```
///
/// ``fetch(_:)``, ``fetchCount(_:)``, ``fetchIdentifiers(_:)``, ``save(_:)``, ``cachedSnapshots(for:editingState:)``,
/// ``erase()`` and ``delete(_:)`` read and write the store through a container of its own. Unlike Apple's, it does
/// not provide history (`HistoryProviding`) yet.
public final class DefaultStore: DataStore, DataStoreBatching {
    /// The configuration type of SwiftData's own store.
    public typealias Configuration = ModelConfiguration
    /// The snapshot type of SwiftData's own store.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: ModelConfiguration
    /// The configuration's name.
    public let name: String
    /// The schema of the models the store holds: the configuration's schema, or an empty one.
    public let schema: Schema
    /// The identifier of the store, the `storeIdentifier` of its models' persistent identifiers.
    public var identifier: String { container.stores.first?.identifier ?? configuration.name }

    /// Opens the store a configuration describes, creating it when it does not exist, and migrating it with the
    /// plan when it needs to.
    ///
    /// - Throws: What `ModelConfiguration.validate()` throws, and `SwiftDataError.loadIssueModelContainer` when the
    ///   store cannot be opened or created.
    public init(_ configuration: ModelConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        try configuration.validate()
        self.configuration = configuration
        self.name = configuration.name
        self.schema = configuration.schema ?? Schema()
        self.access = SnapshotStoreAccess(
            container: try ModelContainer(for: schema, migrationPlan: migrationPlan, configurations: [configuration]))
    }

    // MARK: - Processing Fetch Requests

    /// Returns snapshots of the models a request describes, with the predicate, sort, offset and limit applied
    /// by the store. `relatedSnapshots` is empty: ask ``cachedSnapshots(for:editingState:)`` for related models.
    ///
    /// - Throws: The errors `ModelContext.fetch(_:)` throws.
    public func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot>
    where T: PersistentModel {
        try access.fetch(request)
    }

    /// Returns the number of models a request describes.
    ///
    /// - Throws: The errors `ModelContext.fetchCount(_:)` throws.
    public func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try access.fetchCount(request)
    }

    /// Returns the identifiers of the models a request describes.
    ///
    /// - Throws: The errors `ModelContext.fetchIdentifiers(_:)` throws.
    public func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    where T: PersistentModel {
        try access.fetchIdentifiers(request)
    }

    // MARK: - Persisting Model Data

    /// Writes snapshots into the store in one transaction: inserted snapshots become new rows, updated ones
    /// replace the values of their rows, deleted ones delete their rows (with their relationships' delete rules).
    ///
    /// Relationships name models by identifier: an inserted snapshot's temporary identifier refers to the model it
    /// inserts, any other to a stored model. The result maps each inserted snapshot's identifier to its row's
    /// permanent one, and holds the saved snapshots of the inserted and updated models.
    ///
    /// - Throws: The errors `ModelContext.save()` throws; nothing is written then.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        try access.save(request)
    }

    // MARK: - Deleting Persisted Model Data

    /// Deletes every model the store holds.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the store was opened with `allowsSave: false`.
    public func erase() throws {
        try access.erase()
    }

    /// Deletes every model of a type that a request's predicate matches, and saves the deletion.
    ///
    /// - Throws: The errors `ModelContext.delete(model:where:includeSubclasses:)` and `ModelContext.save()` throw.
    public func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        try access.delete(request)
    }

    // MARK: - Sharing Cached Data Between Model Contexts

    /// Returns snapshots of the stored models with the given identifiers; identifiers of models the store does not
    /// hold are left out. The store keeps no cache: each call reads the models.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        try access.cachedSnapshots(for: persistentIdentifiers, editingState: editingState)
    }

    // MARK: - Internal

    /// The container that reads and writes the store, seen through snapshots.
    let access: SnapshotStoreAccess

    /// The container that reads and writes the store.
    var container: ModelContainer { access.container }
}
