import Foundation
import SwiftData
import Synchronization

@Model
final class HookFolder {
    var name: String
    @Relationship(inverse: \HookNote.folder) var notes: [HookNote] = []

    init(name: String) { self.name = name }
}

@Model
final class HookNote {
    var text: String
    /// Set by the store on every save (see `RecordingStoreConfiguration.stampsRevisions`).
    var revision: Int = 0
    var folder: HookFolder?

    init(text: String) { self.text = text }
}

/// What a `RecordingStore` does beyond keeping snapshots, and its name.
struct RecordingStoreConfiguration: DataStoreConfiguration {
    typealias Store = RecordingStore

    var name: String
    var schema: Schema?
    /// Returns the snapshots of every other entity with each fetch, as `relatedSnapshots`.
    var returnsRelatedSnapshots = false
    /// The entities whose snapshots `cachedSnapshots(for:editingState:)` answers with.
    var cachedEntityNames: Set<String> = []
    /// Sets `revision` of each saved snapshot to one more than the stored one, and returns the saved snapshots as
    /// `snapshotsToReregister`.
    var stampsRevisions = false

    init(name: String = "recording-\(UUID().uuidString)", schema: Schema? = Schema([HookFolder.self, HookNote.self])) {
        self.name = name
        self.schema = schema
    }
}

/// A custom store that keeps snapshots in memory and records every call SwiftData makes of it, in order.
final class RecordingStore: DataStore, @unchecked Sendable {
    // @unchecked: what changes is inside `state`, a mutex; every other stored property is a constant.
    typealias Configuration = RecordingStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    /// One call SwiftData made of the store, with the identifier of the editing state it carried.
    enum Call: Equatable, Sendable {
        case initializeState(UUID)
        case invalidateState(UUID)
        /// A fetch of an entity.
        case fetch(String, UUID)
        case cachedSnapshots([PersistentIdentifier], UUID)
        case save(UUID)

        /// The identifier of the editing state the call carried.
        var editingStateID: UUID {
            switch self {
            case .initializeState(let id), .invalidateState(let id), .fetch(_, let id), .cachedSnapshots(_, let id),
                .save(let id):
                id
            }
        }
    }

    private struct State {
        var snapshots: [DefaultSnapshot] = []
        var calls: [Call] = []
        var saveRequests: [DataStoreSaveChangesRequest<DefaultSnapshot>] = []
    }

    let configuration: RecordingStoreConfiguration
    let identifier: String
    let schema: Schema
    private let state = Mutex(State())

    /// The stores opened so far, by name, so that a test can look at the one its container opened.
    private static let opened = Mutex<[String: RecordingStore]>([:])

    init(_ configuration: RecordingStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.identifier = configuration.name
        self.schema = configuration.schema ?? Schema()
        Self.opened.withLock { $0[configuration.name] = self }
    }

    /// The store a container opened for a configuration of this name.
    static func named(_ name: String) -> RecordingStore? {
        opened.withLock { $0[name] }
    }

    /// The calls made so far, in order.
    var calls: [Call] { state.withLock { $0.calls } }
    /// The save requests received so far, in order.
    var saveRequests: [DataStoreSaveChangesRequest<DefaultSnapshot>] { state.withLock { $0.saveRequests } }
    /// The snapshots the store holds, in the order they were first saved.
    var snapshots: [DefaultSnapshot] { state.withLock { $0.snapshots } }

    /// The number of fetches of an entity so far.
    func fetchCount(of entityName: String) -> Int {
        calls.filter { if case .fetch(entityName, _) = $0 { true } else { false } }.count
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        let name = Schema.entityName(for: T.self)
        let snapshots = state.withLock { state in
            state.calls.append(.fetch(name, request.editingState.id))
            return state.snapshots
        }
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        let fetched = snapshots.filter { $0.persistentIdentifier.entityName == name }
        var related: [PersistentIdentifier: DefaultSnapshot] = [:]
        if configuration.returnsRelatedSnapshots {
            for snapshot in snapshots where snapshot.persistentIdentifier.entityName != name {
                related[snapshot.persistentIdentifier] = snapshot
            }
        }
        return DataStoreFetchResult(
            descriptor: request.descriptor, fetchedSnapshots: fetched, relatedSnapshots: related)
    }

    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        state.withLock { state in
            state.calls.append(.cachedSnapshots(persistentIdentifiers, editingState.id))
            let wanted = Set(persistentIdentifiers)
            var found: [PersistentIdentifier: DefaultSnapshot] = [:]
            for snapshot in state.snapshots
            where wanted.contains(snapshot.persistentIdentifier)
                && configuration.cachedEntityNames.contains(snapshot.persistentIdentifier.entityName)
            {
                found[snapshot.persistentIdentifier] = snapshot
            }
            return found
        }
    }

    func initializeState(for editingState: EditingState) {
        state.withLock { $0.calls.append(.initializeState(editingState.id)) }
    }

    func invalidateState(for editingState: EditingState) {
        state.withLock { $0.calls.append(.invalidateState(editingState.id)) }
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        try state.withLock { state in
            state.calls.append(.save(request.editingState.id))
            state.saveRequests.append(request)
            var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
            for snapshot in request.inserted {
                remapped[snapshot.persistentIdentifier] = try PersistentIdentifier.identifier(
                    for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            }
            var snapshots = state.snapshots
            var reregistered: [PersistentIdentifier: DefaultSnapshot] = [:]
            func stamped(_ snapshot: DefaultSnapshot, over stored: DefaultSnapshot?) throws -> DefaultSnapshot {
                guard configuration.stampsRevisions else { return snapshot }
                let saved = try Self.revised(snapshot, revision: (try stored.map(Self.revision(of:)) ?? 0) + 1)
                reregistered[saved.persistentIdentifier] = saved
                return saved
            }
            for snapshot in request.updated {
                let identifier = snapshot.persistentIdentifier
                guard let position = snapshots.firstIndex(where: { $0.persistentIdentifier == identifier }) else {
                    throw CocoaError(.fileNoSuchFile)
                }
                let saved = snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remapped)
                snapshots[position] = try stamped(saved, over: snapshots[position])
            }
            for snapshot in request.inserted {
                let permanent = remapped[snapshot.persistentIdentifier]!
                let saved = snapshot.copy(persistentIdentifier: permanent, remappedIdentifiers: remapped)
                snapshots.append(try stamped(saved, over: nil))
            }
            let deleted = Set(request.deleted.map(\.persistentIdentifier))
            snapshots.removeAll { deleted.contains($0.persistentIdentifier) }
            state.snapshots = snapshots
            return DataStoreSaveChangesResult(
                for: identifier, remappedIdentifiers: remapped, snapshotsToReregister: reregistered)
        }
    }

    /// The `revision` a snapshot of a note holds, or 0; read through the snapshot's encoding, as any store can.
    private static func revision(of snapshot: DefaultSnapshot) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? [String: Any]
        return object?["revision"] as? Int ?? 0
    }

    /// A snapshot of a note with another `revision`; other snapshots as they are.
    private static func revised(_ snapshot: DefaultSnapshot, revision: Int) throws -> DefaultSnapshot {
        guard snapshot.persistentIdentifier.entityName == Schema.entityName(for: HookNote.self),
            var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? [String: Any]
        else { return snapshot }
        object["revision"] = revision
        return try JSONDecoder().decode(DefaultSnapshot.self, from: JSONSerialization.data(withJSONObject: object))
    }
}
