extension ModelContext {
    // MARK: - Saving

    /// A notification that posts when the context is about to process pending inserts, changes, and deletes.
    ///
    /// Its object is the context. As on Apple platforms, it has no `userInfo` dictionary. A save with nothing to
    /// write posts nothing.
    public static let willSave = Notification.Name("ModelContextWillSave")

    /// A notification that posts when the context finishes processing pending inserts, changes, and deletes.
    ///
    /// Its object is the context. Its `userInfo` holds the persistent identifiers of the models the save inserted,
    /// updated and deleted, each an array of `PersistentIdentifier` under the raw value of a ``NotificationKey``
    /// (an empty array when there are none):
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { note in
    ///     let key = ModelContext.NotificationKey.insertedIdentifiers.rawValue
    ///     let inserted = note.userInfo?[key] as? [PersistentIdentifier] ?? []
    /// }
    /// ```
    ///
    /// After ``ModelContainer/deleteAllData()`` or ``ModelContainer/erase()``, each context of the container that
    /// held saved models of the stores whose rows were deleted posts it once more, the next time it fetches or
    /// saves, with their identifiers under ``NotificationKey/invalidatedAllIdentifiers`` (and empty arrays under
    /// the other keys). The models are marked deleted, and have left the context, before it posts.
    public static let didSave = Notification.Name("ModelContextDidSave")

    /// Describes the data in the user info dictionary of a notification sent by a model context.
    public enum NotificationKey: String, Sendable {
        /// A set of values identifying the context's deleted models: the identifiers of the models the save
        /// deleted, `delete(model:where:)`'s rows included.
        case deletedIdentifiers
        /// A set of values identifying the context's inserted models: their permanent identifiers.
        case insertedIdentifiers
        /// A set of values identifying the context's invalidated models: the identifiers of the saved models the
        /// context held from the stores whose rows were all deleted (``ModelContainer/deleteAllData()``,
        /// ``ModelContainer/erase()``), which left the context as deleted, unsaved changes dropped. Only in the
        /// `didSave` notification that tells of it, which a context posts only when it held such models.
        case invalidatedAllIdentifiers
        /// A set of values identifying the context's updated models.
        case updatedIdentifiers
        /// A token that indicates which generation of the model store SwiftData is using.
        ///
        /// Not posted: OpenSwiftData has no query generations, and each fetch reads the latest saved data.
        case queryGeneration
    }

    /// Writes every pending insert, change and deletion, one transaction per store.
    ///
    /// Deleting a model applies its relationships' delete rules: `.cascade` deletes related models (through any
    /// number of levels), `.nullify` removes the deleted model from related models, `.deny` refuses the save while
    /// related models remain. Inserting a model whose `.unique` values match a stored model updates that stored
    /// model instead.
    ///
    /// With several stores, every store writes its part before any commits, so a store that refuses its part
    /// leaves every store as it was. Should a commit itself fail after another store committed, the context keeps
    /// pending only what was not written (see "When a save fails" in the Contexts and Actors article). A custom
    /// store commits as it saves, so it is written last, and a second custom store of the same save may refuse after
    /// the first saved (see the Custom Stores article).
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure`, naming the store and the model, when a store refuses the
    ///   changes (nothing is written, but for another custom store's part as said above, and the context keeps its
    ///   pending changes), when a store is read-only, when a
    ///   changed model's row was deleted by another context or process since it was read, when a `.deny` rule
    ///   applies, when a to-many relationship holds fewer than `minimumModelCount` or more than
    ///   `maximumModelCount` models, or when a relationship was changed while the store could not read its
    ///   related models.
    public func save() throws {
        applyExternalChanges()
        guard hasChanges else { return }
        NotificationCenter.default.post(name: ModelContext.willSave, object: self)

        let deletions = try deletionClosure()
        try validateRelationshipCounts(excluding: deletions)
        try refuseRelationshipsChangedUnread(excluding: deletions)
        var groups = StoreChangeGroups(container: container, editingState: editingState)
        try groups.add(inserted: inserted.models)
        for model in changed.models where !deletions.contains(ObjectIdentifier(model)) {
            let storage = model.storage
            groups.changes[try groups.position(of: storage.entity)].updated.append(storage)
        }
        for model in deletions.models {
            let storage = model.storage
            guard storage.isSaved else { continue }
            groups.changes[try groups.position(of: storage.entity)].deleted.append(storage)
        }
        let deletedRows = batchDeletions.all
        for rows in deletedRows {
            groups.changes[try groups.position(of: rows.entity)].deletedRows.append(rows)
        }

        var savedInserts: [SavedInserts]
        do {
            savedInserts = try Self.write(consume groups)
        } catch let partial as PartlyCommittedSave {
            applyPartlySavedChanges(partial.committed, deletions: deletions)
            throw partial.failure
        }
        applySavedChanges(savedInserts: &savedInserts, deletions: deletions, deletedRows: deletedRows)
        // A change drops released observers' entries only while some observer lives in the process (see
        // `noteLocalChange`); a save drops them in any case, so a context does not keep them for its lifetime.
        if !localChangeObservers.isEmpty { localChangeObservers.removeReleased() }
    }

    /// Saves each store's changes and returns each store's save with its inserted models, whose identifiers the save
    /// knows.
    ///
    /// With several stores, every store's part is written, each in a transaction of its own, before any is
    /// committed: a store that refuses its part (read-only, a constraint, a value it cannot encode) leaves every
    /// store as it was. Only a commit itself failing (an I/O error) after another store committed leaves the
    /// stores apart; that throws `PartlyCommittedSave`, which says which stores committed.
    ///
    /// The groups are consumed: their lists of inserts share storage with the context's, and must be gone by the
    /// time the save looks for the inserted models that something else holds (see `applySavedChanges`).
    private static func write(_ groups: consuming StoreChangeGroups) throws -> [SavedInserts] {
        var parts = zip(groups.stores, groups.changes).filter { !$0.1.isEmpty }
        if parts.count == 1 {
            let (store, changes) = parts.removeLast()
            let save = try store.save(changes)
            if let defect = save.defect { throw PartlyCommittedSave(committed: [(save, changes)], failure: defect) }
            return [(save, changes.inserted)]
        }
        for (store, changes) in parts { try store.checkAllowsSave(changes) }
        // One order for every save, by the identifier each store keeps, so that two saves (of two containers, or
        // two processes) never each hold a store the other waits for. Stores that commit as they write (custom
        // stores) come last: a refusal of theirs still leaves every transactional store as it was.
        parts.sort {
            ($0.0.writesInTransaction ? 0 : 1, $0.0.identifier) < ($1.0.writesInTransaction ? 0 : 1, $1.0.identifier)
        }
        var saves: [any StoreSave] = []
        var committed: [CommittedStoreChanges] = []
        do {
            for (store, changes) in parts {
                let save = try store.beginSave(changes)
                saves.append(save)
                if !store.writesInTransaction { committed.append((save, changes)) }
            }
        } catch let error as SwiftDataError {
            for save in saves.reversed() { save.rollBack() }
            throw committed.isEmpty ? error : Self.partlyCommitted(committed, failure: error)
        } catch {
            for save in saves.reversed() { save.rollBack() }
            guard committed.isEmpty else {
                throw Self.partlyCommitted(
                    committed,
                    failure: SwiftDataError(.modelValidationFailure, "a store refused the save", underlying: error))
            }
            throw error
        }
        for (position, save) in saves.enumerated() where save.store.writesInTransaction {
            do {
                try save.commit()
            } catch let error as SwiftDataError {
                for later in saves[(position + 1)...] { later.rollBack() }
                if committed.isEmpty { throw error }
                throw Self.partlyCommitted(committed, failure: error)
            }
            committed.append((save, parts[position].1))
        }
        // Every store committed; a store that did so with a defect has the context take it all as saved and say so.
        if let defect = committed.lazy.compactMap(\.save.defect).first {
            throw PartlyCommittedSave(committed: committed, failure: defect)
        }
        return committed.map { ($0.save, $0.changes.inserted) }
    }

    /// The error for a save of which some stores committed their part before another failed.
    private static func partlyCommitted(_ committed: [CommittedStoreChanges], failure: SwiftDataError)
        -> PartlyCommittedSave
    {
        let names = committed.map { "'\($0.save.store.name)'" }.joined(separator: ", ")
        return PartlyCommittedSave(
            committed: committed,
            failure: failure.adding(
                place: "the stores \(names) saved their changes, and the context keeps only the rest", entityName: nil)
        )
    }

    /// A store's committed save, and the inserted models it wrote, in the order the save numbers them.
    private typealias SavedInserts = (save: any StoreSave, models: [any PersistentModel])

    // MARK: - Internal

    /// The models a save deletes: the deleted ones and, through `.cascade` rules, everything they own.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` when a `.deny` rule forbids a deletion.
    private func deletionClosure() throws -> OrderedModels {
        var result = OrderedModels()
        var pending = deleted.models
        while let model = pending.popLast() {
            guard !result.contains(model) else { continue }
            result.append(model)
            let storage = model.storage
            for property in storage.entity.persistedProperties {
                guard let info = property.relationshipInfo else { continue }
                switch info.declaration.deleteRule {
                case .cascade:
                    pending += property.relatedModels(in: storage.value(at: property.index))
                case .deny:
                    let related = property.relatedModels(in: storage.value(at: property.index))
                    if related.contains(where: { !$0.storage.isDeleted }) {
                        throw SwiftDataError(
                            .modelValidationFailure,
                            "cannot delete \(storage.entity.name): its relationship '\(property.name)' has the .deny "
                                + "rule and still refers to \(related.count) model(s)",
                            entityName: storage.entity.name
                        )
                    }
                case .nullify, .noAction:
                    break
                }
            }
        }
        return result
    }

    /// Checks `minimumModelCount` and `maximumModelCount` of every inserted or changed model's to-many
    /// relationships. An empty optional to-many relationship counts as absent and is not checked.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the model, the relationship and the count.
    private func validateRelationshipCounts(excluding deletions: OrderedModels) throws {
        // Most schemas declare no counts at all, and then no model needs looking at.
        guard container.schema.modelEntities.contains(where: \.declaresRelationshipCounts) else { return }
        for model in [inserted.models, changed.models].joined() where !deletions.contains(model) {
            let storage = model.storage
            guard storage.entity.declaresRelationshipCounts else { continue }
            for property in storage.entity.persistedProperties {
                guard let info = property.relationshipInfo, info.isToMany else { continue }
                let minimum = info.declaration.minimumModelCount ?? 0
                let maximum = info.declaration.maximumModelCount ?? 0
                guard minimum > 0 || maximum > 0 else { continue }
                if storage.isSaved, !storage.changedSlots.contains(property.index) { continue }
                let count = property.relatedModels(in: storage.value(at: property.index)).count
                if count == 0 && property.isOptional { continue }
                if count < minimum || (maximum > 0 && count > maximum) {
                    let limits = maximum > 0 ? "\(minimum)...\(maximum)" : "at least \(minimum)"
                    throw SwiftDataError(
                        .modelValidationFailure,
                        "\(storage.entity.name).\(property.name) holds \(count) model(s); it must hold \(limits)",
                        entityName: storage.entity.name
                    )
                }
            }
        }
    }

    /// Refuses to save a relationship changed while its stored links could not be read: a load the store failed
    /// reads as no model (and leaves the slot unloaded), so a change made then was made to a relationship missing
    /// its stored models, and saving it would unlink them (a join table is rewritten whole) or leave a one-to-one
    /// linked twice. Such a change kept the unloaded marker as its value for a rollback.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the model and the relationship.
    private func refuseRelationshipsChangedUnread(excluding deletions: OrderedModels) throws {
        guard hasChangedUnloadedRelationships else { return }
        for (storage, slot, value) in savedValues where value is ModelStorage.UnloadedRelationship {
            guard storage.changedSlots.contains(slot), let model = storage.model, !deletions.contains(model) else {
                continue
            }
            let name = storage.entity.name + "." + storage.entity.persistedProperties[slot].name
            throw SwiftDataError(
                .modelValidationFailure,
                "\(name) was changed while the store could not read its related models, so the change was made to "
                    + "a relationship missing them; roll it back and make it again once the store can be read",
                entityName: storage.entity.name
            )
        }
    }

    /// Brings the context up to date after every store committed: permanent identifiers, saved values, and
    /// deleted models removed from the relationships of the models that remain.
    private func applySavedChanges(
        savedInserts: inout [SavedInserts],
        deletions: OrderedModels,
        deletedRows: [(entity: Schema.Entity, identifiers: [PersistentIdentifier])]
    ) {
        // Sized up front: growing arrays of 100,000 identifiers copied them several times.
        var insertedIDs: [PersistentIdentifier] = []
        insertedIDs.reserveCapacity(inserted.models.count)
        var updatedIDs: [PersistentIdentifier] = []
        updatedIDs.reserveCapacity(changed.models.count)
        var deletedIDs: [PersistentIdentifier] = []
        let reregistered = savedInserts.flatMap(\.save.reregisteredRows)

        for model in deletions.models {
            let storage = model.storage
            if storage.isSaved { deletedIDs.append(storage.identifier) }
            removeDeletedModel(storage)
        }
        for rows in deletedRows { rowsDeletedDuringEnumeration?.formUnion(rows.identifiers) }
        var hasUnregisteredInserts = false
        var insertsMayOverwrite = false
        for (save, models) in savedInserts {
            // Room for a store's inserts is reserved when the first of an entity with uniqueness constraints comes,
            // as those are all registered (100,000 upserts took 210–283 ms growing the table as they went, 218–221
            // ms with it reserved). The others are mostly released with a large save (see below), and a table for
            // all of them cost more than growing it for the ones that stay.
            var isReserved = false
            for (position, model) in models.enumerated() {
                guard !deletions.contains(model) else { continue }
                let storage = model.storage
                let identifier = save.identifierOfInserted(at: position, entity: storage.entity)
                insertedIDs.append(identifier)
                storage.identifier = consume identifier
                storage.commit()
                // Without uniqueness constraints the row is new, and its key was never given before, so no model
                // of it can be registered; such models are registered below, if they outlive the save. With them,
                // the save may have upserted a row a registered model shows.
                if storage.entity.uniquenessConstraints.isEmpty {
                    hasUnregisteredInserts = true
                    continue
                }
                insertsMayOverwrite = true
                if !isReserved {
                    registered.reserveCapacity(registered.count + models.count)
                    isReserved = true
                }
                if let previous = registered.insert(storage), previous !== storage {
                    showUpsertedValues(of: storage, in: previous)
                }
            }
        }
        // The lists of saved inserts share storage with the inserted list, whose models' references are counted
        // next: they go first.
        savedInserts = []
        // A model only this context holds is released when the inserted list is, right below: registering it
        // would only have it unregister itself at once (an import of 100,000 models spent a twentieth of its time
        // on that). The models something else holds are registered, so fetches find them.
        if hasUnregisteredInserts {
            inserted.forEachHeldElsewhere { model in
                let storage = model.storage
                // A model an upsert of this save merged into another's row is not registered: the other one is.
                if storage.isSaved, !storage.isRegistered, registered[storage.identifier] == nil {
                    registered.insertNew(storage)
                }
            }
        }
        // Models whose only change was losing a deleted model are now as stored, as are the updated ones. Live
        // queries are told which properties changed, read before the commit forgets them.
        var updatedProperties: [String: Set<String>]? = container.broadcaster.hasListeners ? [:] : nil
        for model in changed.models where !deletions.contains(model) {
            let storage = model.storage
            if updatedProperties != nil {
                let properties = storage.entity.persistedProperties
                updatedProperties![storage.entity.name, default: []].formUnion(
                    storage.changedSlots.map { properties[$0].name })
            }
            storage.commit()
            updatedIDs.append(storage.identifier)
        }
        for (_, identifiers) in deletedRows { deletedIDs += identifiers }
        inserted = OrderedModels()
        changed = OrderedModels()
        deleted = OrderedModels()
        savedValues = []
        hasChangedUnloadedRelationships = false
        batchDeletions.removeAll()
        showReregisteredValues(of: reregistered)
        refreshModelsSavedElsewhereWhileChanged()

        announceSave(
            inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs, updatedProperties: updatedProperties,
            insertsMayOverwrite: insertsMayOverwrite)
    }

    /// Gives the models this context holds of rows a store reregistered while saving (a custom store's
    /// `snapshotsToReregister`) the rows' attribute values, as their saved values: no change is recorded, and
    /// observers are told as for a refresh. Rows of models the context does not hold are left alone.
    func showReregisteredValues(of rows: [any StoreRow]) {
        for row in rows where registered[row.identifier] != nil {
            _ = try? materialize(row)
        }
    }

    /// Tells the container's other contexts and the `didSave` observers what a save wrote.
    func announceSave(
        inserted insertedIDs: [PersistentIdentifier],
        updated updatedIDs: [PersistentIdentifier],
        deleted deletedIDs: [PersistentIdentifier],
        updatedProperties: [String: Set<String>]? = nil,
        insertsMayOverwrite: Bool = true
    ) {
        container.broadcaster.broadcast(from: inbox) {
            SavedChanges(
                insertedIdentifiers: Set(insertedIDs),
                updatedIdentifiers: Set(updatedIDs),
                deletedIdentifiers: Set(deletedIDs),
                author: author,
                updatedProperties: updatedProperties,
                insertsMayOverwrite: insertsMayOverwrite
            )
        }
        NotificationCenter.default.post(
            name: ModelContext.didSave,
            object: self,
            userInfo: [
                NotificationKey.insertedIdentifiers.rawValue: insertedIDs,
                NotificationKey.updatedIdentifiers.rawValue: updatedIDs,
                NotificationKey.deletedIdentifiers.rawValue: deletedIDs,
            ]
        )
    }
}
