internal import Foundation

/// One store's committed part of a save: the store's save, which knows each inserted model's identifier, and the
/// changes it wrote.
typealias CommittedStoreChanges = (save: any StoreSave, changes: StoreChanges)

/// A save over several stores of which some committed and then another's commit failed (an I/O error, say):
/// every store wrote its part, so nothing refused the changes, but the stores now differ from what one whole save
/// would have left. The context applies the committed parts and keeps the rest pending.
struct PartlyCommittedSave: Error, @unchecked Sendable {
    // @unchecked: thrown and caught inside one context's `save()`, on the context's own isolation; it never
    // crosses to another.
    let committed: [CommittedStoreChanges]
    /// The error the app gets: the failed store's, saying which stores committed.
    let failure: SwiftDataError
}

extension ModelContext {
    /// Brings the context up to date with the stores that committed, leaving every change of the others pending,
    /// so that the next save writes each of those once and none of these again.
    func applyPartlySavedChanges(_ committed: [CommittedStoreChanges], deletions: OrderedModels) {
        var insertedIDs: [PersistentIdentifier] = []
        var updatedIDs: [PersistentIdentifier] = []
        var deletedIDs: [PersistentIdentifier] = []
        var settled: Set<ObjectIdentifier> = []
        // Models that become changed below only because a deleted model leaves their relationships: the stores
        // cleared those references as they deleted its row, so such a change is saved already.
        let changedBefore = Set(changed.models.map { ObjectIdentifier($0) })
        for (save, changes) in committed {
            for storage in changes.deleted {
                settled.insert(ObjectIdentifier(storage))
                if let model = storage.model {
                    deleted.remove(model)
                    changed.remove(model)
                }
                deletedIDs.append(storage.identifier)
                removeDeletedModel(storage)
            }
            for (position, model) in changes.inserted.enumerated() {
                let storage = model.storage
                guard !storage.isDeleted, !deletions.contains(model) else { continue }
                storage.identifier = save.identifierOfInserted(at: position, entity: storage.entity)
                storage.commit()
                inserted.remove(model)
                if let previous = registered.insert(storage), previous !== storage {
                    showUpsertedValues(of: storage, in: previous)
                    settled.insert(ObjectIdentifier(previous))
                }
                insertedIDs.append(storage.identifier)
            }
            for storage in changes.updated where !storage.isDeleted {
                settled.insert(ObjectIdentifier(storage))
                storage.commit()
                if let model = storage.model { changed.remove(model) }
                updatedIDs.append(storage.identifier)
            }
            for (entity, identifiers) in changes.deletedRows {
                for identifier in identifiers { batchDeletions.remove(identifier, of: entity) }
                deletedIDs += identifiers
            }
        }
        for model in changed.models where !changedBefore.contains(ObjectIdentifier(model)) {
            model.storage.commit()
            settled.insert(ObjectIdentifier(model.storage))
        }
        for model in changed.models where settled.contains(ObjectIdentifier(model.storage)) { changed.remove(model) }
        // What a rollback would restore of the committed models is now their stored value.
        savedValues.removeAll { settled.contains(ObjectIdentifier($0.storage)) }
        showReregisteredValues(of: committed.flatMap(\.save.reregisteredRows))

        announceSave(inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs)
    }
}
