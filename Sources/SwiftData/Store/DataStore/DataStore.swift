/// An interface that lets SwiftData read and write models through a store of your own.
///
/// A custom store keeps models as snapshots — values by property name, with relationships as persistent
/// identifiers — in whatever form suits it: a JSON file, a web service, another database. Conform a class to this
/// protocol, pair it with a ``DataStoreConfiguration`` whose `Store` is that class, and pass the configuration to
/// `ModelContainer(for:configurations:)`. Only ``fetch(_:)`` and ``save(_:)`` are required; every
/// other requirement has a default implementation.
///
/// ```swift
/// final class JSONStore: DataStore {
///     typealias Configuration = JSONStoreConfiguration
///     typealias Snapshot = DefaultSnapshot
///
///     let configuration: JSONStoreConfiguration
///     let identifier: String
///     let schema: Schema
///
///     init(_ configuration: JSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
///         self.configuration = configuration
///         self.identifier = configuration.name
///         self.schema = configuration.schema ?? Schema()
///     }
///
///     func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
///         if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
///         if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
///         return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try read(T.self))
///     }
///
///     func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
///         -> DataStoreSaveChangesResult<DefaultSnapshot>
///     {
///         // Give each inserted snapshot a permanent identifier, write everything, report the new identifiers.
///     }
/// }
/// ```
///
/// A store that cannot evaluate a fetch's predicate or sort throws ``DataStoreError/preferInMemoryFilter`` or
/// ``DataStoreError/preferInMemorySort`` from ``fetch(_:)``; SwiftData then filters and sorts the store's snapshots
/// itself.
///
/// `ModelContainer(for:configurations:)` opens the store of a configuration whose `Store` is a custom type, and
/// contexts then read and write through it. The container calls one store one call at a time. A save must give
/// every inserted model a permanent identifier in ``DataStoreSaveChangesResult/remappedIdentifiers``.
///
/// Each context is an ``EditingState`` to the store: every request carries the editing state of the context that
/// makes it. SwiftData calls ``initializeState(for:)`` before a context's first request of the store and
/// ``invalidateState(for:)`` when the context is released, and asks ``cachedSnapshots(for:editingState:)`` before
/// it fetches models by identifier.
public protocol DataStore: AnyObject {
    /// The configuration type that describes this store.
    associatedtype Configuration: DataStoreConfiguration
    /// The snapshot type the store reads and writes; most stores use ``DefaultSnapshot``.
    associatedtype Snapshot: DataStoreSnapshot

    // MARK: - Creating a Data Store

    /// Opens the store a configuration describes.
    ///
    /// - Parameters:
    ///   - configuration: Where the store lives and which models it holds.
    ///   - migrationPlan: The container's migration plan, if any, for a store that migrates its own data.
    /// - Throws: The store's own error when it cannot be opened.
    init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws

    // MARK: - Accessing Store Information

    /// The configuration the store was opened with.
    var configuration: Configuration { get }
    /// A string that identifies the store; it is the `storeIdentifier` of the persistent identifiers the store
    /// makes.
    var identifier: String { get }
    /// The schema of the models the store holds.
    var schema: Schema { get }

    // MARK: - Processing Fetch Requests

    /// Returns snapshots of the models a fetch request describes.
    ///
    /// Apply the descriptor's predicate, sort, offset and limit, or throw ``DataStoreError/preferInMemoryFilter``
    /// (or ``DataStoreError/preferInMemorySort``) and return every model of the type: SwiftData then filters and
    /// sorts them itself. The result's ``DataStoreFetchResult/relatedSnapshots`` may carry snapshots of related
    /// models: the context that fetched then reads those models from them, by identifier, without another fetch.
    ///
    /// - Throws: The store's own error, or a ``DataStoreError``.
    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot>
    where T: PersistentModel

    /// Returns the number of models a fetch request describes.
    ///
    /// The default implementation counts the snapshots ``fetch(_:)`` returns.
    ///
    /// - Throws: The store's own error, or a ``DataStoreError``.
    func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel

    /// Returns the identifiers of the models a fetch request describes.
    ///
    /// The default implementation returns the identifiers of the snapshots ``fetch(_:)`` returns.
    ///
    /// - Throws: The store's own error, or a ``DataStoreError``.
    func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    where T: PersistentModel

    // MARK: - Persisting Model Data

    /// Writes a context's inserted, updated and deleted models, all of them or none.
    ///
    /// Inserted snapshots carry temporary identifiers: give each a permanent one (see
    /// ``PersistentIdentifier/identifier(for:entityName:primaryKey:)``) and return the mapping in
    /// ``DataStoreSaveChangesResult/remappedIdentifiers``. Snapshots whose values the store set while saving go in
    /// ``DataStoreSaveChangesResult/snapshotsToReregister``: the saving context's models take their attribute
    /// values as saved. A request that deletes models also updates the models that lose them from a relationship
    /// (see ``DataStoreSaveChangesRequest/updated``). A store that throws must leave its data as it was.
    ///
    /// - Throws: The store's own error; the save of the context that asked fails with it.
    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot>

    // MARK: - Deleting Persisted Model Data

    /// Deletes every model the store holds.
    ///
    /// The default implementation throws ``DataStoreError/unsupportedFeature``.
    ///
    /// - Throws: The store's own error, or ``DataStoreError/unsupportedFeature`` when the store cannot erase.
    func erase() throws

    // MARK: - Sharing Cached Data Between Model Contexts

    /// Prepares whatever the store keeps for one editing state (one context) before its first request.
    ///
    /// SwiftData calls it once for each context that uses the store, with the context's editing state, before the
    /// context's first request of the store: a fetch, a count, a read by identifier or a save. A context that
    /// never uses the store is never announced. The default implementation does nothing.
    func initializeState(for editingState: EditingState)

    /// Releases whatever the store keeps for one editing state, which makes no more requests.
    ///
    /// SwiftData calls it once for each editing state it called ``initializeState(for:)`` with: when the context is
    /// released, on whichever thread releases it, or when the context's `editingState` is set to another
    /// identifier. The container's other calls of the store wait until it returns. The default implementation
    /// does nothing.
    func invalidateState(for editingState: EditingState)

    /// Returns the snapshots the store has at hand for some identifiers, without a fetch.
    ///
    /// SwiftData asks before it fetches models by identifier (`ModelContext.model(for:)`, the first access of a
    /// to-one relationship, the models a to-many relationship names, a refresh after another context's save), for
    /// the identifiers that the context's fetches did not return as related snapshots. It fetches only the
    /// identifiers the result leaves out, so return only snapshots as current as a fetch would give. Identifiers
    /// the store has no snapshot for are left out of the result. The default implementation returns an empty
    /// dictionary.
    ///
    /// - Throws: The store's own error.
    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
}

extension DataStore {
    /// Counts the snapshots ``fetch(_:)`` returns.
    ///
    /// - Throws: What ``fetch(_:)`` throws.
    public func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try fetch(request).fetchedSnapshots.count
    }

    /// Returns the identifiers of the snapshots ``fetch(_:)`` returns.
    ///
    /// - Throws: What ``fetch(_:)`` throws.
    public func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    where T: PersistentModel {
        try fetch(request).fetchedSnapshots.map(\.persistentIdentifier)
    }

    /// Throws ``DataStoreError/unsupportedFeature``: a store erases only what it knows how to.
    ///
    /// - Throws: ``DataStoreError/unsupportedFeature``.
    public func erase() throws {
        throw DataStoreError.unsupportedFeature
    }

    /// Does nothing.
    public func initializeState(for editingState: EditingState) {}

    /// Does nothing.
    public func invalidateState(for editingState: EditingState) {}

    /// Returns no snapshots.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
    {
        [:]
    }
}
