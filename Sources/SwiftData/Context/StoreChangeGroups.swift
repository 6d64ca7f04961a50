/// The changes of one save, grouped by the store that holds each model's entity.
///
/// A container has few stores, and a save mostly holds runs of models of one entity: the groups are arrays
/// searched by identity, and the last entity's group is remembered, so grouping a model costs neither a lookup by
/// entity name nor a hash.
struct StoreChangeGroups {
    let container: ModelContainer
    private(set) var stores: [any ModelStore] = []
    /// The changes for `stores[i]` at `changes[i]`.
    var changes: [StoreChanges] = []
    private var lastEntity: Schema.Entity?
    private var lastPosition = 0

    /// The saving context's editing state, which each store's changes carry.
    let editingState: EditingState

    init(container: ModelContainer, editingState: EditingState) {
        self.container = container
        self.editingState = editingState
    }

    /// The position in `changes` of the group of an entity's store, added when it is the first of its store.
    ///
    /// - Throws: `SwiftDataError.configurationSchemaNotFoundInContainerSchema` when no store holds the entity.
    mutating func position(of entity: Schema.Entity) throws -> Int {
        if entity === lastEntity { return lastPosition }
        let position = position(ofStore: try container.store(for: entity))
        lastEntity = entity
        lastPosition = position
        return position
    }

    /// Adds inserted models to the groups of their stores. A container with one store gives it the list as it is,
    /// without a pass over the models: the store's writer reads each model anyway, and refuses one of an entity it
    /// does not hold.
    ///
    /// - Throws: `SwiftDataError.configurationSchemaNotFoundInContainerSchema` when no store holds a model's entity.
    mutating func add(inserted models: [any PersistentModel]) throws {
        if container.stores.count == 1, !models.isEmpty {
            changes[position(ofStore: container.stores[0])].inserted = models
            return
        }
        for model in models { changes[try position(of: model.storage.entity)].inserted.append(model) }
    }

    /// The position in `changes` of a store's group, added when it has none yet.
    private mutating func position(ofStore store: any ModelStore) -> Int {
        if let existing = stores.firstIndex(where: { $0 === store }) { return existing }
        stores.append(store)
        changes.append(StoreChanges(editingState: editingState))
        return stores.count - 1
    }
}
