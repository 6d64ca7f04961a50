/// An object that tracks models in memory, fetches them from the container's stores and saves their changes.
///
/// A context is not `Sendable`: use one per actor. Inserts, changes and deletions stay pending until `save()`,
/// which writes them to each store in one transaction.
///
/// ```swift
/// let context = ModelContext(container)
/// context.insert(Trip(name: "Lisbon"))
/// try context.save()
/// ```
public final class ModelContext {
    /// The container whose stores this context reads and writes.
    public let container: ModelContainer
    /// True when the context saves by itself after changes. Contexts you create start with false;
    /// `ModelContainer.mainContext` starts with true.
    public var autosaveEnabled: Bool = false
    /// The author recorded with this context's saves.
    public var author: String?
    /// The identifier of the context's `editingState`, made on first use.
    var editingStateIdentifier: UUID {
        get {
            if let made = madeEditingStateIdentifier { return made }
            let made = UUID()
            madeEditingStateIdentifier = made
            return made
        }
        set { madeEditingStateIdentifier = newValue }
    }
    /// The identifier of the context's `editingState` once made, nil before: a context that made none made no
    /// request of a store, and has none to tell that it ended.
    private(set) var madeEditingStateIdentifier: UUID?
    /// The undo manager that records this context's inserts, deletions and changes, or nil for none.
    public var undoManager: UndoManager?
    /// The value each changed slot of a saved model held when it was last saved or fetched, recorded when the slot
    /// first changes; `rollback()` puts them back. Kept here rather than with each model: a list per model cost an
    /// allocation on every model's first change.
    var savedValues: [(storage: ModelStorage, slot: Int, value: Any)] = []
    /// True when some entry of `savedValues` is of a relationship changed while not loaded, which a save refuses
    /// (see `refuseRelationshipsChangedUnread(excluding:)`).
    var hasChangedUnloadedRelationships = false
    /// The error of the last automatic save, or nil when it succeeded. An addition to Apple's API: autosave
    /// failures have nowhere else to go.
    public internal(set) var lastAutosaveError: (any Error)?

    /// Saved models by identifier, not retained: a model nobody refers to and that has no changes is released,
    /// and its backing data then removes its entry (see `ModelRegistry`).
    var registered = ModelRegistry()
    /// Models inserted and not yet saved, in insertion order.
    var inserted = OrderedModels()
    /// Saved models with unsaved changes.
    var changed = OrderedModels()
    /// Saved models deleted and not yet saved.
    var deleted = OrderedModels()
    /// Rows deleted by `delete(model:where:)` without loading their models, not yet saved.
    var batchDeletions = BatchDeletions()

    /// Saves of the container's other contexts not applied here yet.
    let inbox = ChangeInbox()
    /// Models that had unsaved changes when another context saved their rows: they take the other properties' saved
    /// values once their own changes are saved or rolled back.
    var savedElsewhereWhileChanged: Set<PersistentIdentifier> = []
    /// Models this context holds with unsaved changes whose rows another context or process deleted: a fetch no
    /// longer finds them, whatever their values, and live queries leave them out.
    var heldAfterDeletionElsewhere: Set<PersistentIdentifier> = []
    /// The live queries (`ResultsObserver`) that follow this context's in-memory changes.
    var localChangeObservers = LocalChangeObservers()
    /// The rows whose models this context deleted since an enumeration through a store's cursor began (by its own
    /// saves, or others' it merged), or nil when none runs: the cursor reads the store as it was, and must not bring
    /// them back.
    var rowsDeletedDuringEnumeration: Set<PersistentIdentifier>?
    /// True for the container's `mainContext`, whose autosave runs on the main actor.
    var isMainContext = false
    /// True while an autosave is scheduled on the main actor.
    var isAutosaveScheduled = false
    /// True once a model of this context was given attributes that are not fetched yet (`propertiesToFetch`, or
    /// a batch that could not be read): its release must then leave them a way to load.
    var holdsUnfetchedAttributes = false

    /// Creates a context for a container.
    public init(_ container: ModelContainer) {
        self.container = container
        container.broadcaster.register(inbox)
    }

    deinit {
        detachRegisteredModels()
        if let identifier = madeEditingStateIdentifier {
            endEditingState(EditingState(id: identifier, author: author))
        }
    }

    // MARK: - Inserting and Deleting Models

    /// Registers a model with the context, to be saved by the next `save()`.
    ///
    /// Every model that is reachable from it through relationships and is not in a context yet is inserted too.
    /// Inserting a model that was deleted and not yet saved cancels the deletion.
    public func insert<T>(_ model: T) where T: PersistentModel {
        insertModel(model)
    }

    /// Marks a model for deletion; the next `save()` deletes it and applies its relationships' delete rules.
    ///
    /// Deleting a model that was inserted and never saved simply discards it.
    public func delete<T>(_ model: T) where T: PersistentModel {
        let storage = model.storage
        guard storage.context === self, !storage.isDeleted else { return }
        if !storage.isSaved {
            // Undoing brings the model back with the links it had.
            let links = storage.entity.persistedProperties.filter(\.isRelationship).map {
                ($0.index, storage.values[$0.index])
            }
            inserted.remove(model)
            registered.removeValue(forKey: storage.identifier)
            detachFromRelatedModels(storage)
            storage.context = nil
            storage.isDeleted = true
            noteLocalChange(.deleted(storage))
            undoManager?.registerUndo(withTarget: self) { context in
                context.insert(model)
                for (index, value) in links where !(value is ModelStorage.UnloadedRelationship) {
                    storage.setRelationship(at: index, to: value)
                    // The deletion took the model out of the other sides and left its own slots as they were: the
                    // other sides list it again, and a slot that still held `value` was no change to them.
                    storage.updateInverse(
                        of: index, from: storage.entity.persistedProperties[index].emptyRelationshipValue, to: value,
                        targetsMayHoldThis: true)
                }
            }
            return
        }
        storage.isDeleted = true
        changed.remove(model)
        deleted.append(model)
        undoManager?.registerUndo(withTarget: self) { context in context.insert(model) }
        noteLocalChange(.deleted(storage))
        scheduleAutosave()
    }

    /// Deletes every model of a type that matches a predicate (all of them when `predicate` is nil), including
    /// instances of its `@Model` subclasses unless `includeSubclasses` is false.
    ///
    /// When no delete rule needs the models, the matching rows are deleted by the next save without being loaded,
    /// and models the context has not loaded do not appear in `deletedModelsArray` (see <doc:Relationships>).
    ///
    /// - Throws: `SwiftDataError.unsupportedPredicate` when the predicate cannot be evaluated.
    public func delete<T>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws
    where T: PersistentModel {
        if try deleteRowsWithoutLoading(of: T.self, where: predicate) { return }
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        descriptor.includePendingChanges = true
        for match in try fetch(descriptor) where includeSubclasses || type(of: match) == T.self { delete(match) }
    }

    // MARK: - Tracking Changes

    /// True when the context has unsaved inserts, changes or deletions.
    public var hasChanges: Bool {
        !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty || !batchDeletions.isEmpty
    }

    /// The models inserted since the last save.
    public var insertedModelsArray: [any PersistentModel] { inserted.models }
    /// The saved models changed since the last save.
    public var changedModelsArray: [any PersistentModel] { changed.models }
    /// The models deleted since the last save.
    public var deletedModelsArray: [any PersistentModel] { deleted.models }

    /// Discards pending inserts and deletions, restores changed models to their last saved values, and empties
    /// the undo stack.
    public func rollback() {
        for model in inserted.models {
            let storage = model.storage
            registered.removeValue(forKey: storage.identifier)
            storage.context = nil
        }
        // Observers of each restored property are told, as for any other change.
        for (storage, slot, value) in savedValues { storage.setObserved(slot, value) }
        savedValues = []
        hasChangedUnloadedRelationships = false
        for model in changed.models + deleted.models { model.storage.revert() }
        inserted = OrderedModels()
        changed = OrderedModels()
        deleted = OrderedModels()
        batchDeletions.removeAll()
        undoManager?.removeAllActions()
        refreshModelsSavedElsewhereWhileChanged()
        noteLocalChange(.rolledBack)
    }

    /// Runs the block, then saves the changes it made.
    ///
    /// - Throws: whatever the block throws, or what `save()` throws.
    public func transaction(block: () throws -> Void) throws {
        try block()
        try save()
    }

    // MARK: - Undo

    /// Closes the undo group that collects the changes made since the last call, so the next `undo()` takes back
    /// exactly those changes.
    ///
    /// On the main actor and in a `@ModelActor` the group also closes by itself at the end of the turn or job that
    /// made the changes; elsewhere, call this where one undoable step ends.
    public func processPendingChanges() {
        undoManager?.closeAutomaticGroup()
    }

    // MARK: - Finding Models by Identifier

    /// The registered model with an identifier, or nil when this context has none.
    public func registeredModel<T>(for persistentModelID: PersistentIdentifier) -> T? where T: PersistentModel {
        registeredModel(for: persistentModelID) as? T
    }

    /// The model with an identifier that the context holds: a saved one from the registry, an inserted one (whose
    /// identifier is temporary) from the inserted models.
    func registeredModel(for identifier: PersistentIdentifier) -> (any PersistentModel)? {
        // Inserted models are not in the registry: registering them only to move them to their permanent
        // identifier at the save cost a fifth of a save's bookkeeping.
        guard !identifier.isTemporary else {
            return inserted.models.first { $0.storage.identifier == identifier }
        }
        return registered[identifier]?.model
    }

    /// The model with an identifier: the registered one, or one loaded from its store.
    ///
    /// When the store cannot be read (an I/O error, a busy store, a stored value that does not fit its type), the
    /// result is the model of the row, which reads its values from the store on first access: a read that failed
    /// is never taken for a deletion. When no such model exists (its row was deleted, by this context, another one
    /// or another process), the result is a model of the identifier's entity that reads as deleted (`isDeleted` is
    /// true), whose attributes read what those of a vanished row read (their declared defaults, else `nil`, else
    /// the empty value of their types, else a value made of the type) and whose relationships are empty; check
    /// `isDeleted` or use `registeredModel(for:)` and a fetch instead.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        if let model = existingModel(for: persistentModelID) { return model }
        guard let entity = container.schema.modelEntitiesByName[persistentModelID.entityName] else {
            preconditionFailure("\(persistentModelID) belongs to no entity of this context's container")
        }
        let model = entity.vanishedStandIn(identifier: persistentModelID, container: container)
        model.storage.context = self
        return model
    }

    // MARK: - Internal

    func insertModel(_ model: any PersistentModel) {
        let storage = model.storage
        storage.bind(model)
        if storage.context === self {
            if storage.isDeleted, deleted.contains(model) {
                storage.isDeleted = false
                deleted.remove(model)
                if !storage.changedSlots.isEmpty { changed.append(model) }
                undoManager?.registerUndo(withTarget: self) { context in context.delete(model) }
                noteLocalChange(.inserted(storage))
            }
            return
        }
        precondition(
            storage.context == nil,
            "\(storage.entity.name) belongs to another ModelContext; a model can be in one context only"
        )
        storage.context = self
        // Its new context reads what it has not loaded: the container it kept after its old context went is let go.
        storage.detachedContainer = nil
        storage.isDeleted = false
        if !storage.isSaved {
            // It was in no context until now, so not in this context's list either.
            inserted.appendNew(model)
            undoManager?.registerUndo(withTarget: self) { context in context.delete(model) }
            scheduleAutosave()
        } else if !storage.changedSlots.isEmpty {
            changed.append(model)
        }
        if !storage.identifier.isTemporary { registered.insert(storage) }
        noteLocalChange(.inserted(storage))
        for property in storage.entity.persistedProperties where property.isRelationship {
            let value = storage.values[property.index]
            for target in property.relatedModels(in: value) where target.storage.context !== self {
                insertModel(target)
            }
        }
    }

    /// Called by a saved model's storage on its first change since the last save.
    func noteChanged(_ storage: ModelStorage) {
        // Only saved models note changes, and the inserted list holds unsaved ones alone.
        guard let model = storage.model else { return }
        // The first change of a saved model since its last save or rollback: it is not in the list yet.
        changed.appendNew(model)
        scheduleAutosave()
    }

    /// Removes a discarded model from the relationships of the models it is linked to.
    /// Takes a model whose row is deleted out of the context: out of its related models' relationships and the
    /// registry, marked deleted and without a context.
    func removeDeletedModel(_ storage: ModelStorage) {
        rowsDeletedDuringEnumeration?.insert(storage.identifier)
        detachFromRelatedModels(storage)
        registered.removeValue(forKey: storage.identifier)
        storage.isDeleted = true
        storage.context = nil
    }

    /// Unregisters a model a read made of a row deleted since (see `rowsDeletedDuringEnumeration`): unlike
    /// `removeDeletedModel(_:)`, it detaches nothing, as nothing links to the model yet.
    func forgetModelOfDeletedRow(_ storage: ModelStorage) {
        if registered[storage.identifier] === storage { registered.removeValue(forKey: storage.identifier) }
        storage.isDeleted = true
        storage.context = nil
    }

    /// Another instance of a row an upsert of this save took over: it shows the values just saved, as saved.
    func showUpsertedValues(of storage: ModelStorage, in previous: ModelStorage) {
        previous.ensureSlots()
        storage.ensureSlots()
        previous.values.assign(from: storage.values)
        previous.commit()
        if let model = previous.model { changed.remove(model) }
    }

    func detachFromRelatedModels(_ storage: ModelStorage) {
        guard let model = storage.model else { return }
        for property in storage.entity.persistedProperties {
            guard let info = property.relationshipInfo, !info.inverseSides.isEmpty,
                info.declaration.deleteRule != .noAction || !storage.isSaved
            else { continue }
            let value = storage.values[property.index]
            guard !(value is ModelStorage.UnloadedRelationship) else { continue }
            for target in property.relatedModels(in: value) {
                for side in info.inverseSides { target.storage.removeFromSlot(side.index, model, otherIsLeaving: true) }
            }
        }
    }
}

extension ModelContext: Equatable {
    /// Contexts are equal when they are the same instance.
    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool { lhs === rhs }
}

extension ModelContext {
    /// Removes the registry entry of backing data that is being released with its model.
    func unregister(_ storage: ModelStorage) {
        registered.remove(storage)
    }

    /// Readies the saved models this context holds to outlive it: each keeps the container, to read what it has
    /// not loaded (see `ModelStorage.detachedContainer`), and unloads its relationships, so that models that refer
    /// to each other are released once nothing outside refers to them (see `ModelStorage.unloadRelationships()`).
    func detachRegisteredModels() {
        let hasRelationships = container.schema.modelEntities.contains(where: \.hasRelationships)
        guard hasRelationships || holdsUnfetchedAttributes else { return }
        // Retained while they change: unloading one model's relationships can release another model.
        let storages = registered.allStorages
        for storage in storages {
            storage.detachedContainer = container
            if hasRelationships { storage.unloadRelationships() }
        }
    }
}

/// Models in insertion order, with constant-time membership.
struct OrderedModels {
    private(set) var models: [any PersistentModel] = []
    /// The identities of `models`, for membership; nil until a membership question needs them, so that a list
    /// only ever appended to with `appendNew(_:)` (the changed models) never hashes.
    private var identities: Set<ObjectIdentifier>? = []

    var isEmpty: Bool { models.isEmpty }

    func contains(_ model: any PersistentModel) -> Bool { contains(ObjectIdentifier(model)) }

    /// Membership; an empty list answers without hashing, which saves a hash per model in a save without
    /// deletions.
    func contains(_ identity: ObjectIdentifier) -> Bool {
        guard !models.isEmpty else { return false }
        guard let identities else { return models.contains { ObjectIdentifier($0) == identity } }
        return identities.contains(identity)
    }

    /// Appends a model unless the list holds it already.
    mutating func append(_ model: any PersistentModel) {
        if identities == nil { identities = Set(models.lazy.map { ObjectIdentifier($0) }) }
        guard identities!.insert(ObjectIdentifier(model)).inserted else { return }
        models.append(model)
    }

    /// Appends a model the caller knows the list does not hold, without recording its identity.
    mutating func appendNew(_ model: any PersistentModel) {
        if identities != nil {
            if models.isEmpty {
                identities = nil
            } else {
                identities!.insert(ObjectIdentifier(model))
            }
        }
        models.append(model)
    }

    mutating func remove(_ model: any PersistentModel) {
        if identities != nil { guard identities!.remove(ObjectIdentifier(model)) != nil else { return } }
        models.removeAll { $0 === model }
    }

    /// Calls `body` with each model that something besides this list holds, in order: the others are released
    /// with the list.
    ///
    /// Each model's reference count is read where the list keeps it, since copying the model out to look would
    /// itself add a reference. A list whose storage another array shares (a caller's `insertedModelsArray`) is
    /// copied first, which counts that array's references too.
    mutating func forEachHeldElsewhere(_ body: (any PersistentModel) -> Void) {
        models.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                // A class-bound existential begins with its object reference (the ABI's class existential
                // container), so that word can be looked at as an `AnyObject` in place.
                let isOnlyReference = UnsafeMutableRawPointer(buffer.baseAddress! + index).withMemoryRebound(
                    to: AnyObject.self, capacity: 1
                ) { isKnownUniquelyReferenced(&$0.pointee) }
                if !isOnlyReference { body(buffer[index]) }
            }
        }
    }
}

extension ModelContext {
    /// For the main context with autosave on: schedules one save on the main actor, after the work that is running
    /// now. All changes made in one turn of the main actor are saved together.
    func scheduleAutosave() {
        guard isMainContext, autosaveEnabled, !isAutosaveScheduled else { return }
        isAutosaveScheduled = true
        let box = MainActorContext(context: self)
        Task { @MainActor in
            box.context.isAutosaveScheduled = false
            box.context.autosaveIfNeeded()
        }
    }

    /// Saves when `autosaveEnabled` is true and there are changes. Errors are kept in `lastAutosaveError`
    /// rather than thrown, since nobody is there to catch them.
    func autosaveIfNeeded() {
        guard autosaveEnabled, hasChanges else { return }
        do {
            try save()
            lastAutosaveError = nil
        } catch {
            lastAutosaveError = error
        }
    }
}

/// The main context, carried into a main-actor task.
private struct MainActorContext: @unchecked Sendable {
    // @unchecked: only ever the container's mainContext, which is used on the main actor only.
    let context: ModelContext
}

extension ModelContext: CustomDebugStringConvertible {
    /// A summary of the context for logs: its pending inserts, changes and deletions, and whether it autosaves.
    public var debugDescription: String {
        "ModelContext(inserted: \(inserted.models.count), changed: \(changed.models.count), "
            + "deleted: \(deleted.models.count), autosaveEnabled: \(autosaveEnabled))"
    }
}
