internal import Foundation

/// A custom store (Apple's `DataStore` API) seen through the interface every store has: reads become fetch
/// requests for snapshots, saves become save-changes requests, and what the store leaves to SwiftData (filtering
/// and sorting, selections by identifier, relationship links) is done here on its snapshots, or by the fetch layer
/// on models.
///
/// A custom store is written for one caller at a time (Apple's contexts call it on their own queue): every call
/// into it holds one lock, so contexts on several threads take turns.
///
/// Each context's first request tells the store of the context's editing state (`initializeState(for:)`), and the
/// context's end tells it the state is over (`invalidateState(for:)`). Reads by identifier take, before fetching,
/// the snapshots the context's fetches returned as related and those the store has cached.
final class DataStoreAdapter<Store: DataStore>: ModelStore, @unchecked Sendable {
    // @unchecked: `store` is used only while `access` is held; every other stored property is immutable.
    private let store: Store
    private let access = Locked(EditingStates())
    /// The editing state of reads made for no context.
    private let ownEditingState = EditingState()
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

    deinit {
        // Every editing state the store was told of ends with it.
        for state in access.withLock({ $0.initialized.values }) { store.invalidateState(for: state) }
    }

    var allowsSave: Bool { true }
    var writesInTransaction: Bool { false }

    /// Runs `body` with the store as a history provider, under the adapter's lock; nil when the store provides no
    /// history (see DataStoreAdapter+History.swift).
    func withHistoryProvider<Result>(_ body: (any HistoryProviding) throws -> Result?) throws -> Result? {
        try access.withLock { _ in
            guard let provider = store as? any HistoryProviding else { return nil }
            return try body(provider)
        }
    }

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

    func links(
        of property: Schema.Entity.Property, owner entity: Schema.Entity, owners: [PersistentIdentifier],
        editingState: EditingState?
    ) throws -> [(owner: PersistentIdentifier, target: PersistentIdentifier)] {
        var request = StoreReadRequest(entity: entity, selection: .identifiers(owners))
        request.editingState = editingState
        let snapshots = try self.snapshots(for: request)
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
    /// The request leaves no model naming a deleted one: see `completingDeletions`. After the store saved, the
    /// related snapshots kept for reads by identifier of the saved models are dropped, and the snapshots the store
    /// reregisters become the save's `reregisteredRows`.
    ///
    /// - Throws: the store's own error, unchanged, when it refuses the save. A save that leaves an inserted model
    ///   without a permanent identifier is committed with that defect (`StoreSave.defect`).
    func beginSave(_ changes: StoreChanges) throws -> any StoreSave {
        if let stranger = changes.inserted.first(where: { entitiesByName[$0.storage.entity.name] == nil }) {
            throw SwiftDataError.notInContainerSchema(stranger.storage.entity)
        }
        var related: [PersistentIdentifier: any BackingData] = [:]
        func snapshot(of model: any PersistentModel) -> Store.Snapshot {
            Store.Snapshot(from: model.anyBackingData, relatedBackingDatas: &related)
        }
        var inserted = changes.inserted.map(snapshot)
        var updated = changes.updated.compactMap(\.model).map(snapshot)
        var deleted = changes.deleted.compactMap(\.model).map(snapshot)
        // Rows deleted without loading their models: the store deletes snapshots, so it is given theirs.
        for (entity, identifiers) in changes.deletedRows {
            var request = StoreReadRequest(entity: entity, selection: .identifiers(identifiers))
            request.editingState = changes.editingState
            for found in try snapshots(for: request) {
                deleted.append(try Self.storeSnapshot(of: found))
            }
        }
        if !deleted.isEmpty {
            try completingDeletions(
                deleted, inserted: &inserted, updated: &updated, editingState: changes.editingState)
        }
        let result = try access.withLock { states in
            let editingState = begin(changes.editingState, in: &states)
            let request = DataStoreSaveChangesRequest(
                inserted: inserted, updated: updated, deleted: deleted, editingState: editingState)
            let result = try store.save(request)
            // What fetches kept of these models is older than what was just saved.
            states.forgetRelated(
                Set([inserted, updated, deleted].joined().map(\.persistentIdentifier))
                    .union(result.remappedIdentifiers.values))
            return result
        }
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
            reregisteredRows: reregisteredRows(of: result), defect: defect)
    }

    func deleteAllRows() throws {
        try access.withLock { states in
            states.related = [:]
            try store.erase()
        }
    }

    // MARK: - Contexts

    /// Tells the store that the editing state ended, when it was told of it, and drops the related snapshots kept
    /// for it.
    func contextDidEnd(_ editingState: EditingState) {
        access.withLock { states in
            states.related[editingState.id] = nil
            guard states.initialized.removeValue(forKey: editingState.id) != nil else { return }
            store.invalidateState(for: editingState)
        }
    }

    // MARK: - Internal

    /// The editing state a request carries (the store's own for a request made for no context), which the store
    /// is told of before its first request. Called with `access` held.
    private func begin(_ editingState: EditingState?, in states: inout EditingStates) -> EditingState {
        let state = editingState ?? ownEditingState
        if states.initialized.updateValue(state, forKey: state.id) == nil {
            store.initializeState(for: state)
        }
        return state
    }

    /// The snapshots a request selects, in its order: the store filters and sorts what it can, and what it leaves
    /// (a selection by identifier or by relationship, rows left out, paging after an identifier) is applied here.
    ///
    /// - Throws: `StoreCannotEvaluate` when the store prefers SwiftData to filter or sort in memory; the store's
    ///   own errors otherwise.
    private func snapshots(for request: StoreReadRequest) throws -> [DefaultSnapshot] {
        var snapshots: [DefaultSnapshot]
        if case .identifiers(let identifiers) = request.selection, request.filter == nil, request.sortOrder == nil {
            snapshots = try self.snapshots(identifiedBy: identifiers, request)
        } else {
            snapshots = try translatingPreferences {
                try fetchedSnapshots(of: try modelType(of: request.entity), request)
            }
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

    /// The snapshots of the models with some identifiers, for a read with no predicate and no sort: first those
    /// the fetches of the request's editing state returned as related (each taken once), then those the store has
    /// cached (`cachedSnapshots(for:editingState:)`), and only for the identifiers neither answered, the entity's
    /// fetched snapshots.
    ///
    /// - Throws: like `snapshots(for:)`.
    private func snapshots(identifiedBy identifiers: [PersistentIdentifier], _ request: StoreReadRequest) throws
        -> [DefaultSnapshot]
    {
        var unique: Set<PersistentIdentifier> = []
        let asked = identifiers.filter { unique.insert($0).inserted }
        let (atHand, missing) = try access.withLock { states in
            let editingState = begin(request.editingState, in: &states)
            var atHand: [DefaultSnapshot] = []
            var missing: [PersistentIdentifier] = []
            for identifier in asked {
                if let snapshot = states.related[editingState.id]?.removeValue(forKey: identifier) {
                    atHand.append(snapshot)
                } else {
                    missing.append(identifier)
                }
            }
            guard !missing.isEmpty else { return (atHand, missing) }
            let cached = try store.cachedSnapshots(for: missing, editingState: editingState)
            guard !cached.isEmpty else { return (atHand, missing) }
            var rest: [PersistentIdentifier] = []
            for identifier in missing {
                if let snapshot = cached[identifier] {
                    atHand.append(try Self.defaultSnapshot(of: snapshot))
                } else {
                    rest.append(identifier)
                }
            }
            return (atHand, rest)
        }
        guard !missing.isEmpty else { return atHand }
        let wanted = Set(missing)
        let fetched = try translatingPreferences {
            try fetchedSnapshots(of: try modelType(of: request.entity), request)
        }
        return atHand + fetched.filter { wanted.contains($0.persistentIdentifier) }
    }

    /// The snapshots the store fetches for a request. The related snapshots it returns with them are kept for
    /// the request's editing state, for its reads by identifier (see `snapshots(identifiedBy:_:)`).
    private func fetchedSnapshots<T: PersistentModel>(of type: T.Type, _ request: StoreReadRequest) throws
        -> [DefaultSnapshot]
    {
        let fetched = try access.withLock { states in
            let editingState = begin(request.editingState, in: &states)
            let fetch = DataStoreFetchRequest(
                descriptor: Self.descriptor(of: T.self, for: request), editingState: editingState)
            let result = try store.fetch(fetch)
            // Reads made for no context have no context to keep them for.
            if request.editingState != nil, !result.relatedSnapshots.isEmpty {
                var kept = states.related[editingState.id] ?? [:]
                for snapshot in result.relatedSnapshots.values
                where entitiesByName[snapshot.persistentIdentifier.entityName] != nil {
                    kept[snapshot.persistentIdentifier] = try Self.defaultSnapshot(of: snapshot)
                }
                states.related[editingState.id] = kept
            }
            return result.fetchedSnapshots
        }
        return try fetched.map { try Self.defaultSnapshot(of: $0) }
    }

    private func identifiers<T: PersistentModel>(of type: T.Type, _ request: StoreReadRequest) throws
        -> [PersistentIdentifier]
    {
        try access.withLock { states in
            let fetch = DataStoreFetchRequest(
                descriptor: Self.descriptor(of: T.self, for: request),
                editingState: begin(request.editingState, in: &states))
            return try store.fetchIdentifiers(fetch)
        }
    }

    /// Makes a save's request complete when it deletes models: no inserted or updated snapshot names a deleted
    /// model, and every model that loses a deleted one from a relationship is sent as updated, its snapshot read
    /// from the store (the context's own reads first) when the save does not update it already.
    ///
    /// A model loses a deleted one when the deleted model's relationship to it has the `.nullify` delete rule and
    /// an inverse (`.cascade` deletes it too, `.deny` refused the save before, and `.noAction` leaves its
    /// reference as it is, as its name says).
    ///
    /// - Throws: the store's own errors while reading the related models.
    private func completingDeletions(
        _ deleted: [Store.Snapshot], inserted: inout [Store.Snapshot], updated: inout [Store.Snapshot],
        editingState: EditingState?
    ) throws {
        let deletedIDs = Set(deleted.map(\.persistentIdentifier))
        func withoutDeleted(_ snapshot: Store.Snapshot) throws -> Store.Snapshot {
            guard let cleared = try Self.defaultSnapshot(of: snapshot).removingReferences(to: deletedIDs) else {
                return snapshot
            }
            return try Self.storeSnapshot(of: cleared)
        }
        inserted = try inserted.map(withoutDeleted)
        updated = try updated.map(withoutDeleted)
        var sent = deletedIDs.union(inserted.map(\.persistentIdentifier)).union(updated.map(\.persistentIdentifier))
        var losing: [(entity: Schema.Entity, identifiers: [PersistentIdentifier])] = []
        for snapshot in try deleted.map({ try Self.defaultSnapshot(of: $0) }) {
            for property in snapshot.entity.persistedProperties {
                guard let info = property.relationshipInfo, let destination = info.destination,
                    info.declaration.deleteRule == .nullify, !info.inverseSides.isEmpty
                else { continue }
                let targets: [PersistentIdentifier] =
                    switch snapshot.values[property.name] {
                    case .toOne(let target?)?: [target]
                    case .toMany(let targets)?: targets
                    default: []
                    }
                let pending = targets.filter { sent.insert($0).inserted }
                guard !pending.isEmpty else { continue }
                if let position = losing.firstIndex(where: { $0.entity === destination }) {
                    losing[position].identifiers += pending
                } else {
                    losing.append((destination, pending))
                }
            }
        }
        for (entity, identifiers) in losing {
            var request = StoreReadRequest(entity: entity, selection: .identifiers(identifiers))
            request.editingState = editingState
            for snapshot in try snapshots(for: request) {
                guard let cleared = snapshot.removingReferences(to: deletedIDs) else { continue }
                updated.append(try Self.storeSnapshot(of: cleared))
            }
        }
    }

    /// The rows of the snapshots a save result reregisters, under the permanent identifiers of inserted models;
    /// snapshots the container cannot read, or of entities the store does not hold, are left out.
    private func reregisteredRows(of result: DataStoreSaveChangesResult<Store.Snapshot>) -> [DataStoreRow] {
        result.snapshotsToReregister.values.compactMap { snapshot in
            guard var snapshot = try? Self.defaultSnapshot(of: snapshot) else { return nil }
            let identifier = snapshot.persistentIdentifier
            snapshot = snapshot.copy(
                persistentIdentifier: result.remappedIdentifiers[identifier] ?? identifier,
                remappedIdentifiers: result.remappedIdentifiers)
            guard let entity = entitiesByName[snapshot.persistentIdentifier.entityName] else { return nil }
            return DataStoreRow(snapshot: snapshot, entity: entity)
        }
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
    private static func storeSnapshot(of snapshot: DefaultSnapshot) throws -> Store.Snapshot {
        if let snapshot = snapshot as? Store.Snapshot { return snapshot }
        return try JSONDecoder().decode(Store.Snapshot.self, from: JSONEncoder().encode(snapshot))
    }
}

/// What a custom store's adapter keeps per editing state, under its lock.
private struct EditingStates {
    /// The editing states the store was told of (`initializeState(for:)`) and not yet told have ended, by
    /// identifier.
    var initialized: [UUID: EditingState] = [:]
    /// Snapshots of related models the fetches of each editing state returned, by editing state and identifier:
    /// kept until a read by identifier of that state takes them, a save writes their models, or the state ends.
    var related: [UUID: [PersistentIdentifier: DefaultSnapshot]] = [:]

    /// Drops the kept related snapshots of some models, for every editing state.
    mutating func forgetRelated(_ identifiers: Set<PersistentIdentifier>) {
        guard !related.isEmpty, !identifiers.isEmpty else { return }
        for state in related.keys {
            for identifier in identifiers { related[state]?.removeValue(forKey: identifier) }
        }
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
