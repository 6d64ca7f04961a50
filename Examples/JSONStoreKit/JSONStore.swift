internal import Foundation
public import SwiftData

/// A store that keeps models as ``DefaultSnapshot``s in one JSON file, in the shape of WWDC24's "Create a custom
/// data store with SwiftData".
///
/// - Fetching returns the snapshots of the requested type (and its subclasses) in the order they were first saved.
///   The store does not evaluate predicates or sort descriptors: a fetch with a predicate throws
///   `DataStoreError.preferInMemoryFilter`, one with sort descriptors `DataStoreError.preferInMemorySort`, and
///   SwiftData filters and sorts the snapshots itself. (A predicate and a sort descriptor work on models, not on
///   snapshots, and only SwiftData makes models from snapshots.) A fetch without either applies `fetchOffset` and
///   `fetchLimit`, and returns every other snapshot as `relatedSnapshots`.
/// - Saving gives each inserted model a permanent identifier with a new `UUID` as its primary key, replaces
///   temporary identifiers in every saved snapshot's relationships, and writes the whole file at once: a save that
///   throws leaves the file as it was.
public final class JSONStore: DataStore {
    /// The configuration type of the store.
    public typealias Configuration = JSONStoreConfiguration
    /// The snapshot type of the store.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: JSONStoreConfiguration
    /// The store's identifier: the configuration's name.
    public let identifier: String
    /// The schema of the models the store holds.
    public let schema: Schema

    /// Serializes the reads and writes of the file: a container's contexts may call the store from several
    /// threads.
    private let lock = NSLock()

    /// Opens the store of a configuration. The file is read on each request, and created by the first save.
    ///
    /// - Throws: What the configuration's `validate()` throws.
    public init(_ configuration: JSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        try configuration.validate()
        self.configuration = configuration
        self.identifier = configuration.name
        self.schema = configuration.schema ?? Schema()
    }

    // MARK: - Fetching

    /// Returns the snapshots of the requested type, in the order they were first saved.
    ///
    /// - Throws: `DataStoreError.preferInMemoryFilter` for a request with a predicate,
    ///   `DataStoreError.preferInMemorySort` for one with sort descriptors, and the errors of reading and decoding
    ///   the file.
    public func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot>
    where T: PersistentModel {
        let descriptor = request.descriptor
        if descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        let snapshots = try lock.withLock { try read() }
        let names = entityNames(of: T.self)
        var fetched = snapshots.filter { names.contains($0.persistentIdentifier.entityName) }
        fetched = Array(fetched.dropFirst(max(0, descriptor.fetchOffset ?? 0)))
        if let limit = descriptor.fetchLimit { fetched = Array(fetched.prefix(max(0, limit))) }
        var related: [PersistentIdentifier: DefaultSnapshot] = [:]
        for snapshot in snapshots where !names.contains(snapshot.persistentIdentifier.entityName) {
            related[snapshot.persistentIdentifier] = snapshot
        }
        return DataStoreFetchResult(descriptor: descriptor, fetchedSnapshots: fetched, relatedSnapshots: related)
    }

    /// Returns the snapshots the file holds for some identifiers.
    ///
    /// SwiftData asks before it fetches models by identifier (a relationship's target, `model(for:)`): the file
    /// answers for every model it holds, so such reads need no fetch.
    ///
    /// - Throws: The errors of reading and decoding the file.
    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        let wanted = Set(persistentIdentifiers)
        var found: [PersistentIdentifier: DefaultSnapshot] = [:]
        for snapshot in try lock.withLock({ try read() }) where wanted.contains(snapshot.persistentIdentifier) {
            found[snapshot.persistentIdentifier] = snapshot
        }
        return found
    }

    // MARK: - Saving

    /// Writes a save's inserted, updated and deleted snapshots to the file, all of them or none.
    ///
    /// - Throws: ``JSONStoreError/modelNotFound(_:)`` when an updated model is not in the file, and the errors of
    ///   reading, encoding and writing the file. The file is unchanged when it throws.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        try lock.withLock {
            var snapshots = try read()
            var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
            for snapshot in request.inserted {
                remapped[snapshot.persistentIdentifier] = try PersistentIdentifier.identifier(
                    for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            }
            var reregistered: [PersistentIdentifier: DefaultSnapshot] = [:]
            var positions = [PersistentIdentifier: Int](
                snapshots.enumerated().map { ($1.persistentIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
            for snapshot in request.updated {
                let identifier = snapshot.persistentIdentifier
                guard let position = positions[identifier] else { throw JSONStoreError.modelNotFound(identifier) }
                let saved = snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remapped)
                snapshots[position] = saved
                reregistered[identifier] = saved
            }
            for snapshot in request.inserted {
                guard let permanent = remapped[snapshot.persistentIdentifier] else { continue }
                let saved = snapshot.copy(persistentIdentifier: permanent, remappedIdentifiers: remapped)
                positions[permanent] = snapshots.count
                snapshots.append(saved)
                reregistered[permanent] = saved
            }
            let deleted = Set(request.deleted.map(\.persistentIdentifier))
            snapshots.removeAll { deleted.contains($0.persistentIdentifier) }
            try write(snapshots)
            return DataStoreSaveChangesResult(
                for: identifier, remappedIdentifiers: remapped, snapshotsToReregister: reregistered)
        }
    }

    // MARK: - Erasing

    /// Deletes the file, and with it every model.
    ///
    /// - Throws: The error of removing the file.
    public func erase() throws {
        try lock.withLock {
            guard FileManager.default.fileExists(atPath: configuration.fileURL.path) else { return }
            try FileManager.default.removeItem(at: configuration.fileURL)
        }
    }

    // MARK: - Reading and Writing the File

    /// Every snapshot in the file, in the order they were first saved; none when there is no file yet.
    private func read() throws -> [DefaultSnapshot] {
        guard FileManager.default.fileExists(atPath: configuration.fileURL.path) else { return [] }
        return try JSONDecoder().decode([DefaultSnapshot].self, from: Data(contentsOf: configuration.fileURL))
    }

    /// Replaces the file with the snapshots, at once: readers see the old file or the new one.
    private func write(_ snapshots: [DefaultSnapshot]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(snapshots)
        try FileManager.default.createDirectory(
            at: configuration.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: configuration.fileURL, options: .atomic)
    }

    /// The entity names a fetch of a model type returns: the type's own and those of its subclasses in the schema.
    private func entityNames<T: PersistentModel>(of modelType: T.Type) -> Set<String> {
        let name = Schema.entityName(for: modelType)
        var names: Set<String> = [name]
        for entity in schema.entities {
            var ancestor = entity.superentity
            while let current = ancestor, current.name != name { ancestor = current.superentity }
            if ancestor != nil { names.insert(entity.name) }
        }
        return names
    }
}
