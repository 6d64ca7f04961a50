internal import Foundation

/// A custom store (Apple's `DataStore` API) seen through the interface every store has: reads become fetch
/// requests for snapshots, saves become save-changes requests, and what the store leaves to SwiftData (filtering
/// and sorting, selections by identifier, relationship links) is done here on its snapshots, or by the fetch layer
/// on models.
///
/// A custom store is written for one caller at a time (Apple's contexts call it on their own queue): every call
/// into it holds one lock, so contexts on several threads take turns.
final class DataStoreAdapter<Store: DataStore>: ModelStore, @unchecked Sendable {
    // @unchecked: `store` is used only while `access` is held; every other stored property is immutable.
    private let store: Store
    private let access = Locked(())
    let identifier: String
    let name: String
    let entities: [Schema.Entity]
    private let entitiesByName: [String: Schema.Entity]

    /// Opens the store a configuration describes.
    ///
    /// - Throws: what the store's initializer throws.
    init(
        configuration: Store.Configuration, entities: [Schema.Entity],
        migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws {
        store = try Store(configuration, migrationPlan: migrationPlan)
        identifier = store.identifier
        name = configuration.name
        self.entities = entities
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var allowsSave: Bool { true }
    var writesInTransaction: Bool { false }

    // MARK: - Translating

    /// The store receives the predicate as it is, in its fetch request's descriptor.
    func filter<T: PersistentModel>(for predicate: Predicate<T>, entity: Schema.Entity) throws -> any StoreFilter {
        DataStoreFilter(predicate: predicate)
    }

    /// The store receives the sort descriptors as they are, in its fetch request's descriptor.
    func sortOrder<T: PersistentModel>(for sortBy: [SortDescriptor<T>], entity: Schema.Entity) throws
        -> any StoreSortOrder
    {
        DataStoreSortOrder(sortBy: sortBy)
    }

    // MARK: - Reading

    func readRows(_ request: StoreReadRequest, _ body: (DataStoreRow) throws -> Void) throws {
        let snapshots = try self.snapshots(for: request)
        for snapshot in snapshots {
            try body(DataStoreRow(snapshot: snapshot, entity: try entity(of: snapshot)))
        }
    }

    /// The number of the identifiers `identifiers(_:)` gives: the store's own count cannot tell which entity it
    /// counted.
    func count(_ request: StoreReadRequest) throws -> Int {
        try identifiers(request).count
    }

    func identifiers(_ request: StoreReadRequest) throws -> [PersistentIdentifier] {
        guard request.isWholeFetch else { return try snapshots(for: request).map(\.persistentIdentifier) }
        let names = Set(request.entity.hierarchyNames)
        let found: [PersistentIdentifier] = try translatingPreferences {
            try self.identifiers(of: try modelType(of: request.entity), request)
        }
        return found.filter { names.contains($0.entityName) }
    }

    func links(of property: Schema.Entity.Property, owner entity: Schema.Entity, owners: [PersistentIdentifier])
        throws -> [(owner: PersistentIdentifier, target: PersistentIdentifier)]
    {
        let snapshots = try self.snapshots(for: StoreReadRequest(entity: entity, selection: .identifiers(owners)))
        var links: [(owner: PersistentIdentifier, target: PersistentIdentifier)] = []
        for snapshot in snapshots {
            switch snapshot.values[property.name] {
            case .toOne(let target?)?: links.append((snapshot.persistentIdentifier, target))
            case .toMany(let targets)?: links += targets.map { (snapshot.persistentIdentifier, $0) }
            default: break
            }
        }
        return links
    }

    // MARK: - Writing

    func checkAllowsSave(_ changes: StoreChanges) throws {}

    /// Saves the changes at once: a custom store commits what it saves, so the returned save has nothing left to
    /// commit and cannot roll back.
    ///
    /// - Throws: the store's own error, unchanged, when it refuses the save. A save that leaves an inserted model
    ///   without a permanent identifier is committed with that defect (`StoreSave.defect`).
    func beginSave(_ changes: StoreChanges) throws -> any StoreSave {
        if let stranger = changes.inserted.first(where: { entitiesByName[$0.storage.entity.name] == nil }) {
            throw SwiftDataError.notInContainerSchema(stranger.storage.entity)
        }
        let editingState = changes.editingState ?? EditingState()
        var related: [PersistentIdentifier: any BackingData] = [:]
        func snapshot(of model: any PersistentModel) -> Store.Snapshot {
            Store.Snapshot(from: model.anyBackingData, relatedBackingDatas: &related)
        }
        let inserted = changes.inserted.map(snapshot)
        let updated = changes.updated.compactMap(\.model).map(snapshot)
        var deleted = changes.deleted.compactMap(\.model).map(snapshot)
        // Rows deleted without loading their models: the store deletes snapshots, so it is given theirs.
        for (entity, identifiers) in changes.deletedRows {
            let request = StoreReadRequest(entity: entity, selection: .identifiers(identifiers))
            for found in try snapshots(for: request) {
                deleted.append(try Self.storeSnapshot(of: found, entity: entity))
            }
        }
        let request = DataStoreSaveChangesRequest(
            inserted: inserted, updated: updated, deleted: deleted, editingState: editingState)
        let result = try access.withLock { _ in try store.save(request) }
        // The store committed: a model it gave no permanent identifier keeps its temporary one, and the save is
        // taken as written (another attempt would write it again) and reports the store's defect.
        let unmapped = inserted.first { result.remappedIdentifiers[$0.persistentIdentifier]?.isTemporary ?? true }
        let defect = unmapped.map {
            SwiftDataError(
                .modelValidationFailure,
                "the store '\(name)' saved without giving the inserted \($0.persistentIdentifier.entityName) a "
                    + "permanent identifier (DataStoreSaveChangesResult.remappedIdentifiers); the save was written",
                entityName: $0.persistentIdentifier.entityName)
        }
        return DataStoreAdapterSave(
            store: self, inserted: inserted.map(\.persistentIdentifier), remapped: result.remappedIdentifiers,
            defect: defect)
    }

    func deleteAllRows() throws {
        try access.withLock { _ in try store.erase() }
    }

    // MARK: - Internal

    /// The snapshots a request selects, in its order: the store filters and sorts what it can, and what it leaves
    /// (a selection by identifier or by relationship, rows left out, paging after an identifier) is applied here.
    ///
    /// - Throws: `StoreCannotEvaluate` when the store prefers SwiftData to filter or sort in memory; the store's
    ///   own errors otherwise.
    private func snapshots(for request: StoreReadRequest) throws -> [DefaultSnapshot] {
        var snapshots = try translatingPreferences {
            try fetchedSnapshots(of: try modelType(of: request.entity), request)
        }
        // A store may give snapshots of other entities too: only the entity's own and its subclasses' are rows of it.
        let names = Set(request.entity.hierarchyNames)
        snapshots.removeAll { !names.contains($0.persistentIdentifier.entityName) }
        guard !request.isWholeFetch else { return snapshots }
        switch request.selection {
        case .all:
            break
        case .identifiers(let identifiers):
            let wanted = Set(identifiers)
            snapshots.removeAll { !wanted.contains($0.persistentIdentifier) }
        case .related(let inverse, let owners):
            let wanted = Set(owners)
            snapshots.removeAll { snapshot in
                guard case .toOne(let owner?)? = snapshot.values[inverse.name] else { return true }
                return !wanted.contains(owner)
            }
        }
        if let excluded = request.excluded?.identifiers {
            snapshots.removeAll { excluded.contains($0.persistentIdentifier) }
        }
        if request.sortOrder == nil, request.ordersByIdentifier || request.after != nil {
            snapshots.sort { $0.persistentIdentifier < $1.persistentIdentifier }
        }
        if let after = request.after {
            snapshots.removeAll { $0.persistentIdentifier <= after }
        }
        let start = min(max(request.offset ?? 0, 0), snapshots.count)
        let end = request.limit.map { min(snapshots.count, start + max($0, 0)) } ?? snapshots.count
        return Array(snapshots[start..<end])
    }

    private func fetchedSnapshots<T: PersistentModel>(of type: T.Type, _ request: StoreReadRequest) throws
        -> [DefaultSnapshot]
    {
        let fetch = DataStoreFetchRequest(
            descriptor: Self.descriptor(of: T.self, for: request), editingState: request.editingState ?? .init())
        let result = try access.withLock { _ in try store.fetch(fetch) }
        return try result.fetchedSnapshots.map { try Self.defaultSnapshot(of: $0) }
    }

    private func identifiers<T: PersistentModel>(of type: T.Type, _ request: StoreReadRequest) throws
        -> [PersistentIdentifier]
    {
        let fetch = DataStoreFetchRequest(
            descriptor: Self.descriptor(of: T.self, for: request), editingState: request.editingState ?? .init())
        return try access.withLock { _ in try store.fetchIdentifiers(fetch) }
    }

    /// The model type of an entity.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` for an entity without a model class.
    private func modelType(of entity: Schema.Entity) throws -> any PersistentModel.Type {
        guard let type = entity.modelType else {
            throw SwiftDataError(.loadIssueModelContainer, "\(entity.name) has no model class", entityName: entity.name)
        }
        return type
    }

    /// Runs a read, turning the store's wish that SwiftData filter or sort into `StoreCannotEvaluate`.
    private func translatingPreferences<Result>(_ read: () throws -> Result) throws -> Result {
        do {
            return try read()
        } catch DataStoreError.preferInMemoryFilter {
            throw StoreCannotEvaluate(part: .predicate, reason: "the store '\(name)' leaves filtering to SwiftData")
        } catch DataStoreError.preferInMemorySort {
            throw StoreCannotEvaluate(part: .sort, reason: "the store '\(name)' leaves sorting to SwiftData")
        }
    }

    /// The fetch descriptor a request makes for its entity's model type: its predicate and sort, and its limit and
    /// offset when nothing else narrows the read.
    private static func descriptor<T: PersistentModel>(of type: T.Type, for request: StoreReadRequest)
        -> FetchDescriptor<T>
    {
        var descriptor = FetchDescriptor<T>()
        // The filter and order were made for this entity's model type by `filter(for:entity:)` and
        // `sortOrder(for:entity:)`; dropping one would widen the read, and a deletion with it.
        if let filter = request.filter as? DataStoreFilter {
            guard let predicate = filter.predicate as? Predicate<T> else {
                preconditionFailure("a predicate made for another model type than \(T.self)")
            }
            descriptor.predicate = predicate
        }
        if let sortOrder = request.sortOrder as? DataStoreSortOrder {
            guard let sortBy = sortOrder.sortBy as? [SortDescriptor<T>] else {
                preconditionFailure("sort descriptors made for another model type than \(T.self)")
            }
            descriptor.sortBy = sortBy
        }
        if request.isWholeFetch {
            descriptor.fetchLimit = request.limit
            descriptor.fetchOffset = request.offset
        }
        return descriptor
    }

    /// The schema entity of a snapshot's model.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the snapshot names an entity the store does not hold.
    private func entity(of snapshot: DefaultSnapshot) throws -> Schema.Entity {
        guard let entity = entitiesByName[snapshot.persistentIdentifier.entityName] else {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the store '\(name)' gave a snapshot of \(snapshot.persistentIdentifier.entityName), which it does "
                    + "not hold")
        }
        return entity
    }

    /// A store's snapshot as a `DefaultSnapshot`: itself, or its encoding decoded as one.
    private static func defaultSnapshot(of snapshot: Store.Snapshot) throws -> DefaultSnapshot {
        if let snapshot = snapshot as? DefaultSnapshot { return snapshot }
        return try JSONDecoder().decode(DefaultSnapshot.self, from: JSONEncoder().encode(snapshot))
    }

    /// A `DefaultSnapshot` as the store's own snapshot type.
    private static func storeSnapshot(of snapshot: DefaultSnapshot, entity: Schema.Entity) throws -> Store.Snapshot {
        if let snapshot = snapshot as? Store.Snapshot { return snapshot }
        return try JSONDecoder().decode(Store.Snapshot.self, from: JSONEncoder().encode(snapshot))
    }

}

/// A predicate a custom store receives as it is.
struct DataStoreFilter: StoreFilter {
    let predicate: Any
}

/// Sort descriptors a custom store receives as they are.
struct DataStoreSortOrder: StoreSortOrder {
    let sortBy: Any
}

extension StoreReadRequest {
    /// True when the request reads a whole fetch as its descriptor says, with nothing else narrowing it: the store
    /// can apply the limit and offset itself.
    var isWholeFetch: Bool {
        guard case .all = selection else { return false }
        return excluded == nil && after == nil && !(ordersByIdentifier && sortOrder == nil)
    }
}
