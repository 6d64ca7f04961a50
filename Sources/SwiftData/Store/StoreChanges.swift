/// The models one save writes to one store.
package struct StoreChanges {
    /// The inserted models, whose storage the store reads as it writes each one.
    package var inserted: [any PersistentModel] = []
    package var updated: [ModelStorage] = []
    package var deleted: [ModelStorage] = []
    /// Rows deleted without loading their models, by entity.
    package var deletedRows: [(entity: Schema.Entity, identifiers: [PersistentIdentifier])] = []
    /// The saving context's editing state, which a custom store's save request carries.
    package var editingState: EditingState?

    package var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && deletedRows.isEmpty }

    /// The name of the first model's entity, for a message about the whole save.
    package var firstEntityName: String? {
        inserted.first?.storage.entity.name ?? updated.first?.entity.name ?? deleted.first?.entity.name
            ?? deletedRows.first?.entity.name
    }
}
