public import SwiftData

/// The PostgreSQL store as a ``DataStore``: snapshots of the models a ``PostgreSQLConfiguration`` describes.
///
/// A `ModelContainer` opened with a `PostgreSQLConfiguration` reads and writes the database directly, decoding rows
/// straight into models; it does not go through this class. `PostgreSQLStore` is for code that wants the snapshot
/// interface of ``DataStore``: it reads and writes the database through a container of its own.
public final class PostgreSQLStore: DataStore, DataStoreBatching {
    /// The configuration type of the PostgreSQL store.
    public typealias Configuration = PostgreSQLConfiguration
    /// The snapshot type of the PostgreSQL store.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: PostgreSQLConfiguration
    /// The configuration's name.
    public let name: String
    /// The schema of the models the store holds: the configuration's schema, or an empty one.
    public let schema: Schema
    /// The identifier of the store, the `storeIdentifier` of its models' persistent identifiers.
    public var identifier: String { access.identifier }

    private let access: SnapshotStoreAccess

    /// Opens the database a configuration names, creating the store's tables when it has none.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer`, with a `PostgreSQLError` under it, when the server
    ///   cannot be reached, refuses the login, has no such database, or the database holds another schema.
    public init(_ configuration: PostgreSQLConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.name = configuration.name
        self.schema = configuration.schema ?? Schema()
        self.access = SnapshotStoreAccess(
            container: try ModelContainer(
                for: schema, migrationPlan: migrationPlan, storeConfigurations: [configuration]))
    }

    /// Returns snapshots of the models a request describes, filtered, sorted and limited as the request says.
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

    /// Writes snapshots into the database in one transaction, and returns the inserted snapshots' permanent
    /// identifiers and the saved snapshots.
    ///
    /// - Throws: The errors `ModelContext.save()` throws; nothing is written then.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        try access.save(request)
    }

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

    /// Returns snapshots of the stored models with the given identifiers, read from the database.
    ///
    /// - Throws: The errors `ModelContext.model(for:)` throws.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        try access.cachedSnapshots(for: persistentIdentifiers, editingState: editingState)
    }
}
