/// The state behind one model instance: its values, identity, context and change tracking.
///
/// `DefaultBackingData<Model>` is this class typed by its model; the context and the store work with
/// `ModelStorage` so they need no generic model type.
@usableFromInline
package class ModelStorage {
    /// A slot whose property was never assigned.
    @usableFromInline
    package struct Unset {
        package init() {}
    }
    /// A to-one relationship whose target is known by identifier but not loaded yet. `lastKnown` holds what a
    /// batched fetch read of the target's row, for a target whose row is gone when the fault is resolved.
    package struct ToOneFault {
        package let target: PersistentIdentifier?
        var lastKnown: LastKnownValues? = nil

        package init(target: PersistentIdentifier?) {
            self.target = target
        }

        init(target: PersistentIdentifier?, lastKnown: LastKnownValues?) {
            self.target = target
            self.lastKnown = lastKnown
        }
    }
    /// A relationship whose links are stored on the other side (or in a join table) and not loaded yet.
    package struct UnloadedRelationship {
        package init() {}
    }
    /// An attribute not read yet: one a fetch with `propertiesToFetch` left out (never one without a placeholder),
    /// or one of a model made without reading its row; it loads on first access (see `unfetchedAttribute(at:)`).
    package struct NotFetched {
        package init() {}
    }

    // The stored properties every property read and write touches are `@exclusivity(unchecked)`: the run-time
    // check of each access (a thread-local lookup and a list walk) cost as much as the read itself. They are
    // reached only through this class and its context, which are used by one isolation domain at a time, and no
    // code here mutates one of them while a call that could reach it is in progress.

    /// The entity of the model; a new instance of a `@Model` subclass starts with its root class's and switches
    /// to its own (see `adoptEntity(_:)`).
    @exclusivity(unchecked) package final var entity: Schema.Entity
    /// One slot per persisted property, in `entity.properties` order.
    @usableFromInline
    @exclusivity(unchecked) package final var values = ModelSlots()
    @exclusivity(unchecked) package final var identifier: PersistentIdentifier
    final weak var context: ModelContext?
    /// The container of the context this model was in, once that context is released: the model reads what it
    /// has not loaded (relationships, attributes a partial fetch left out) from the container's stores. Held
    /// strongly, so such a read never finds the store closed; the model holds no context.
    final var detachedContainer: ModelContainer?
    /// The model that owns this storage, once known. Unretained, as the model owns the storage: the storage lives
    /// exactly as long as the model (see `ModelRegistry`), and a weak reference would give every model a side
    /// table.
    @usableFromInline
    @exclusivity(unchecked) final unowned(unsafe) var model: (any PersistentModel)?
    /// Slots changed since the last save.
    @exclusivity(unchecked) package final var changedSlots = SlotSet()
    /// Relationship slots assigned before the model object was known; their inverses are updated on `bind`.
    final var slotsAwaitingInverse: [Int] = []
    /// True while `bind(_:)` runs: the relationships the initializer set reach their inverses then, whose members
    /// may list this model already.
    @exclusivity(unchecked) private final var isBinding = false
    /// The fetch that read this model, and the model's position in it, for loading relationships in batches.
    final var fetchGroup: FetchGroup?
    final var fetchGroupIndex = 0
    // The flags come last, together: stored properties are laid out in declaration order, and a flag between two
    // eight-byte properties takes eight bytes.
    /// True once the model's values were saved or fetched: it has a stored row.
    @usableFromInline
    @exclusivity(unchecked) final var isSaved = false
    @exclusivity(unchecked) package final var isDeleted = false
    /// True while the context's registry holds this backing data.
    final var isRegistered = false
    /// True while a fetch refreshes this model with its row's values (see `ModelContext.materialize`).
    final var isRefreshing = false
    /// True while the model's initializer runs for a fetched row: the initializer stores the class's declared
    /// default values, which the row's values replace, so those writes are skipped.
    @usableFromInline
    @exclusivity(unchecked) final var isAwaitingRow = false

    init(entity: Schema.Entity) {
        // The slots are allocated on first use (`DefaultBackingData.init(for:)` does it at once).
        self.entity = entity
        self.identifier = .temporary(of: entity)
    }

    /// Allocates the slots of backing data that has not been used yet.
    @inline(__always)
    final func ensureSlots() {
        let count = entity.persistedProperties.count
        guard values.count != count else { return }
        // A new model's slots are made in one allocation; a subclass adopting its entity adds to them.
        values.growUnset(to: count)
    }

    deinit {
        // The model is being released: its registry entry goes with it.
        if isRegistered, let context { context.unregister(self) }
        values.release()
    }

    /// Backing data for a stored row, empty until `becomeFetched` gives it the row's values.
    init(entity: Schema.Entity, identifier: PersistentIdentifier) {
        self.entity = entity
        self.identifier = identifier
        self.isAwaitingRow = true
    }

    /// The model class this backing data is typed by: the root of the model's class hierarchy.
    var backingModelType: ObjectIdentifier { preconditionFailure("ModelStorage is used through DefaultBackingData") }

    /// Takes the slots of a fetched row, and their ownership, before the model's initializer runs: its `let`
    /// properties read their values from them. The initializer's writes are still skipped until `becomeFetched()`.
    final func takeRow(_ slots: ModelSlots) {
        values.release()
        values = slots
    }

    /// Marks the backing data as holding a stored row, once the model's initializer has run.
    final func becomeFetched() {
        isAwaitingRow = false
        isSaved = true
    }

    /// True when the model was inserted and not saved, or changed since the last save.
    var hasChanges: Bool { !isSaved || !changedSlots.isEmpty }

    // MARK: - Binding to the Model

    /// Records the model that owns this storage, and updates inverses assigned before it was known.
    final func bind(_ model: any PersistentModel) {
        ensureSlots()
        guard self.model == nil else { return }
        self.model = model
        // What the initializer set before this model was known reaches the other sides now, where it may be
        // listed already (`child.parent = p` in the child's initializer, then `p.children.append(child)`).
        isBinding = true
        defer { isBinding = false }
        if type(of: model) != entity.modelType {
            adoptEntity(EntityRegistry.shared.entity(forType: type(of: model)))
        }
        model._$swiftDataFlushPending()
        let pending = slotsAwaitingInverse
        slotsAwaitingInverse = []
        for index in pending {
            updateInverse(of: index, from: entity.persistedProperties[index].emptyRelationshipValue, to: values[index])
        }
    }

    // MARK: - Reading

    /// The value of a slot as `Value`. A slot that holds exactly a `Value`, the common case, is read with one look
    /// at its type; markers (unset, faults, unloaded relationships, unfetched attributes) and values that need a
    /// conversion go through `value(at:)` and `as!`.
    @inlinable
    final func value<Value>(at index: Int, as type: Value.Type) -> Value {
        if let value = values.inlineValue(at: index, as: Value.self) { return value }
        return convertedValue(at: index, as: Value.self)
    }

    /// `value(at:as:)` for a slot whose value the slots could not hand out directly.
    @usableFromInline
    final func convertedValue<Value>(at index: Int, as type: Value.Type) -> Value {
        guard index < values.count else { return exactCast(readableValue(at: index), to: Value.self) }
        // No optional result: in code that is not specialized, `Value?` would be a metadata lookup per read.
        func open<Contained>(_ contained: Contained) -> Value {
            // Equal metadata: the identity conversion, written as the standard library's `_identityCast` is.
            if Contained.self == Value.self { return unsafeBitCast(contained, to: Value.self) }
            return exactCast(readableValue(at: index), to: Value.self)
        }
        return _openExistential(values[index], do: open)
    }

    /// True when `slot` is the slot of the property at `key`, as `@Model` numbered it; accessors check it in debug
    /// builds.
    @usableFromInline
    final func isSlot(_ slot: Int, of key: AnyKeyPath) -> Bool { slot == entity.index(of: key) }

    /// The value of a slot, loading a relationship that is not loaded yet.
    final func value(at index: Int) -> Any {
        ensureSlots()
        let current = values[index]
        // The common case, a loaded value, is told apart from the markers by comparing metadata pointers, which
        // costs far less than a dynamic cast per marker.
        let slotType = heldType(of: current)
        guard
            slotType == ToOneFault.self || slotType == UnloadedRelationship.self || slotType == Unset.self
                || slotType == NotFetched.self
        else { return current }
        switch current {
        case let fault as ToOneFault:
            let (loaded, isFinal) = resolve(fault, for: entity.persistedProperties[index])
            if isFinal { values[index] = loaded }
            return loaded
        case is UnloadedRelationship:
            return loadRelationship(index)
        case is NotFetched:
            return unfetchedAttribute(at: index)
        case is Unset:
            let property = entity.persistedProperties[index]
            if let relationship = property.relationshipInfo, relationship.isToMany || property.isOptional {
                return property.emptyRelationshipValue
            }
            if property.isOptional { return property.noneValue }
            preconditionFailure("\(entity.name).\(property.name) was read before it was given a value")
        default:
            return current
        }
    }

    /// `value(at:)` as a property's getter reads it: a non-optional to-one relationship whose target is gone reads
    /// a stand-in (see `vanishedTarget(at:)`). SwiftData's own reads (delete rules, saves, inverses) see the slot as
    /// it is.
    private func readableValue(at index: Int) -> Any {
        let value = value(at: index)
        return heldType(of: value) == Void.self ? vanishedTarget(at: index) : value
    }

    /// What a non-optional to-one relationship reads when its target is gone (deleted by this or another context,
    /// or its stored link cleared by a deletion): a deleted stand-in of the destination (see
    /// `Schema.Entity.vanishedStandIn()`), made on each read, rather than nothing, which no non-optional property
    /// can hold. The slot keeps holding no target, so a save writes no link.
    private func vanishedTarget(at index: Int) -> Any {
        let property = entity.persistedProperties[index]
        guard let destination = property.relationshipInfo?.destination, !property.isOptional else {
            return values[index]
        }
        return destination.vanishedStandIn(container: context?.container ?? detachedContainer)
    }

    /// True when the relationship in a slot is not loaded: a to-one fault, or links that were not read yet.
    final func isUnloadedRelationship(at index: Int) -> Bool {
        values.holds(ToOneFault.self, at: index) || values.holds(UnloadedRelationship.self, at: index)
    }

    /// The value a to-one fault resolves to, and whether it is final, to be kept in the slot. A read the store
    /// failed is not final: the target is not known to be gone (see `ModelContext.resolveTarget(_:lastKnown:)`).
    private func resolve(_ fault: ToOneFault, for property: Schema.Entity.Property) -> (value: Any, isFinal: Bool) {
        guard let target = fault.target else { return (property.noneValue, true) }
        guard let context else { return detachedTarget(target, for: property, lastKnown: fault.lastKnown) }
        if fetchGroup != nil, context.registered[target] == nil {
            context.loadForFetchGroup(property, of: self)
        }
        return resolved(context.resolveTarget(target, lastKnown: fault.lastKnown), for: property)
    }

    /// The slot value of a to-one relationship whose target resolved as `resolution` says, and whether it is final.
    final func resolved(_ resolution: ModelContext.TargetResolution, for property: Schema.Entity.Property)
        -> (value: Any, isFinal: Bool)
    {
        switch resolution {
        case .model(let model): (property.isOptional ? property.wrapOptional(model) : model, true)
        case .gone: (property.noneValue, true)
        case .unreadable: (property.noneValue, false)
        }
    }

    private func loadRelationship(_ index: Int) -> Any {
        let property = entity.persistedProperties[index]
        guard let context else { return detachedRelationship(at: index) }
        context.loadRelationship(property, of: self)
        // A load the store failed leaves the relationship unloaded, for the next read to try again: this read finds
        // no model.
        return isUnloadedRelationship(at: index) ? property.emptyRelationshipValue : values[index]
    }

    // MARK: - Writing

    /// Sets an attribute slot to the initial value a new model's initializer gives it.
    ///
    /// Inlined into the model's module: an unset slot of a model that is not bound yet is filled in place, as
    /// there is nothing to undo and no change to record, without the run time's generic assignment of an `Any`
    /// (an import of 100,000 models made that call for every property). The rest goes through `setAttribute`.
    @inlinable
    final func setInitialValue<Value>(at index: Int, to newValue: Value) {
        if !isAwaitingRow, !isSaved, model == nil, values.fill(unsetSlot: index, with: newValue) { return }
        setAttribute(at: index, to: newValue)
    }

    /// Sets an attribute slot and records the change.
    @usableFromInline
    final func setAttribute(at index: Int, to newValue: Any) {
        guard !isAwaitingRow else { return }
        ensureSlots()
        registerUndo(at: index)
        changeSlot(index, to: newValue)
    }

    /// Records, with the context's undo manager, how to put a slot back to its current value.
    private func registerUndo(at index: Int) {
        // `model` first: a model's initializer sets every property before the model is bound, and reading the
        // weak `context` costs more than the rest of such a write.
        guard model != nil, !isDeleted, let undoManager = context?.undoManager else { return }
        let oldValue = value(at: index)
        let isRelationship = entity.persistedProperties[index].isRelationship
        undoManager.registerUndo(withTarget: self) { storage in
            guard let model = storage.model else { return }
            model._$swiftDataWithMutation(of: storage.entity.persistedProperties[index].keyPath) {
                if isRelationship {
                    storage.setRelationship(at: index, to: oldValue)
                } else {
                    storage.setAttribute(at: index, to: oldValue)
                }
            }
        }
    }

    /// Sets a relationship slot, records the change, and keeps the other side consistent.
    final func setRelationship(at index: Int, to newValue: Any) {
        guard !isAwaitingRow else { return }
        ensureSlots()
        let wasUnset = values.holds(Unset.self, at: index)
        if !wasUnset { registerUndo(at: index) }
        let oldValue = wasUnset ? entity.persistedProperties[index].emptyRelationshipValue : value(at: index)
        let normalized = entity.persistedProperties[index].normalizedRelationshipValue(newValue)
        changeSlot(index, to: normalized, notifiesObservers: false)
        if model == nil {
            slotsAwaitingInverse.append(index)
            return
        }
        updateInverse(of: index, from: oldValue, to: normalized)
        noteChangeForObservers(at: index)
    }

    /// Puts a new value in a slot as a change of the model. A saved model's context keeps the value the slot held
    /// when last saved (on the slot's first change since), for a rollback, and learns of the model's first change.
    /// `observed` makes the write inside Observation's `withMutation`, for changes SwiftData makes itself; a
    /// property's setter is inside it already.
    final func changeSlot(_ index: Int, to newValue: Any, observed: Bool = false, notifiesObservers: Bool = true) {
        // Live queries hear of the change once it is recorded: one that fetches at once must not take the model
        // for unchanged and refresh the new value away.
        defer { if notifiesObservers { noteChangeForObservers(at: index) } }
        keepSavedValue(at: index)
        if observed { setObserved(index, newValue) } else { values[index] = newValue }
        noteChange(at: index)
    }

    /// Changes a to-many slot in place, as `changeSlot(_:to:observed:)` does with `observed`: `update` is given
    /// the slot's value with nothing else referring to it (the slot holds a marker meanwhile), so a collection
    /// grows or shrinks without a copy of its members.
    final func changeMembers(at index: Int, _ update: (inout Any) -> Void) {
        defer { noteChangeForObservers(at: index) }
        keepSavedValue(at: index)
        func change() {
            var members = values.take(at: index)
            update(&members)
            values[index] = members
        }
        if let model {
            model._$swiftDataWithMutation(of: entity.persistedProperties[index].keyPath, change)
        } else {
            change()
        }
        noteChange(at: index)
    }

    /// Before a saved model's slot first changes since the save, its context keeps the value, for a rollback.
    @inline(__always)
    private func keepSavedValue(at index: Int) {
        guard isSaved, !changedSlots.contains(index), let context else { return }
        context.savedValues.append((self, index, values[index]))
        // A relationship changed before its related models were read (a load that failed): the save checks such
        // changes, and only when there are some.
        if values.holds(UnloadedRelationship.self, at: index) { context.hasChangedUnloadedRelationships = true }
    }

    /// Records that a slot changed: a new model has nothing to save as a change (it is saved whole); a saved one's
    /// context learns of its first change.
    @inline(__always)
    private func noteChange(at index: Int) {
        guard isSaved else { return }
        let isFirstChange = changedSlots.isEmpty
        changedSlots.insert(index)
        if isFirstChange, let context, !isDeleted { context.noteChanged(self) }
    }

    // MARK: - Keeping Inverses Consistent

    /// Updates the inverse side of a relationship slot after it changed from `oldValue` to `newValue`, and inserts
    /// newly linked models into this model's context.
    final func updateInverse(of index: Int, from oldValue: Any, to newValue: Any, targetsMayHoldThis: Bool = false) {
        guard let model else { return }
        let property = entity.persistedProperties[index]
        let oldTargets = property.relatedModels(in: oldValue)
        let newTargets = property.relatedModels(in: newValue)
        let oldSet = Set(oldTargets.map { ObjectIdentifier($0) })
        let newSet = Set(newTargets.map { ObjectIdentifier($0) })

        // A target that `adopt` binds (its initializer set relationships before it was known) may list this model
        // once bound: its members are looked through before this model joins them, as they are while this model
        // is being bound.
        var boundNow: Set<ObjectIdentifier> = []
        for target in newTargets where !oldSet.contains(ObjectIdentifier(target)) {
            if target.storage.model == nil { boundNow.insert(ObjectIdentifier(target)) }
            adopt(target)
        }
        guard let info = property.relationshipInfo else { return }
        for target in oldTargets where !newSet.contains(ObjectIdentifier(target)) {
            for side in info.inverseSides { target.storage.removeFromSlot(side.index, model) }
        }
        // A to-one that several relationships share as their inverse joins none of them (see `sharedInverses`).
        guard let inverse = info.inverse else { return }
        for target in newTargets where !oldSet.contains(ObjectIdentifier(target)) {
            target.storage.addToSlot(
                inverse.index, model,
                mayHoldAlready: targetsMayHoldThis || isBinding || boundNow.contains(ObjectIdentifier(target)))
        }
    }

    /// Brings a newly linked model into this model's context, refusing models of another context.
    private func adopt(_ target: any PersistentModel) {
        let targetStorage = target.storage
        targetStorage.bind(target)
        guard let context else {
            // This model is new and the other one is in a context: linking brings this one in too.
            if let targetContext = targetStorage.context, let model { targetContext.insertModel(model) }
            return
        }
        if let other = targetStorage.context {
            precondition(
                other === context,
                "Illegal attempt to relate \(entity.name) to \(targetStorage.entity.name), which belongs to a different ModelContext"
            )
            return
        }
        context.insert(target)
    }

    /// Removes `model` from this storage's relationship slot (the inverse side of a change elsewhere).
    /// `otherIsLeaving` says `other` is being deleted: a to-one that several of its relationships share as their
    /// inverse then lets go of it even though those relationships still list this model.
    final func removeFromSlot(_ index: Int, _ other: any PersistentModel, otherIsLeaving: Bool = false) {
        let property = entity.persistedProperties[index]
        let current = value(at: index)
        if property.relationshipInfo?.isToMany == true {
            guard property.holdsMember(other, in: current) else { return }
            _ = consume current
            changeMembers(at: index) { property.removeMember(other, from: &$0) }
        } else {
            guard property.relatedModels(in: current).first === other else { return }
            // The owner still holds this model in another relationship that shares this to-one as its inverse.
            if !otherIsLeaving, let model, let sharing = property.relationshipInfo?.sharedInverses, !sharing.isEmpty,
                sharing.contains(where: { side in
                    side.relatedModels(in: other.storage.value(at: side.index)).contains { $0 === model }
                })
            {
                return
            }
            changeSlot(index, to: property.noneValue, observed: true)
        }
    }

    /// Adds `model` to this storage's relationship slot (the inverse side of a change elsewhere). For a to-one
    /// slot, the previous target loses this model from its own side.
    final func addToSlot(_ index: Int, _ other: any PersistentModel, mayHoldAlready: Bool = false) {
        let property = entity.persistedProperties[index]
        ensureSlots()
        let wasLoaded = !values.holds(UnloadedRelationship.self, at: index)
        let current = value(at: index)
        if property.relationshipInfo?.isToMany == true {
            // The members change in place (the one other reference to them, `current`, is let go first), so that
            // giving one model n members costs O(n), not a copy of them per added model. A model no save has
            // stored yet can be among members loaded before only through changes made in memory, which keep both
            // sides consistent: only a saved one (members read from the store, or refreshed by another context's
            // save, may hold it) or members loaded just now are scanned for it.
            // Several relationships of the other model naming these members as their inverse add it once each.
            let mayHold =
                mayHoldAlready || !wasLoaded || other.storage.isSaved
                || property.relationshipInfo?.isInverseOfSeveral == true
            guard !mayHold || !property.holdsMember(other, in: current) else { return }
            _ = consume current
            changeMembers(at: index) { property.appendMember(other, to: &$0) }
        } else {
            let previous = property.relatedModels(in: current).first
            guard previous !== other else { return }
            changeSlot(index, to: property.isOptional ? property.wrapOptional(other) : other, observed: true)
            if let previous, let model, let info = property.relationshipInfo {
                for side in info.inverseSides { previous.storage.removeFromSlot(side.index, model) }
            }
        }
    }

    /// Sets a slot inside Observation's `withMutation` of the owning model, for changes SwiftData makes itself.
    final func setObserved(_ index: Int, _ value: Any) {
        guard let model else {
            values[index] = value
            return
        }
        model._$swiftDataWithMutation(of: entity.persistedProperties[index].keyPath) { values[index] = value }
    }

    // MARK: - Outliving the Context

    /// Turns the relationships this model has loaded back into faults, when its context is released: related
    /// models refer to each other, and would otherwise keep each other alive once nothing else does.
    final func unloadRelationships() {
        for property in entity.persistedProperties where property.isRelationship && property.index < values.count {
            guard !isUnloadedRelationship(at: property.index), !values.holds(Unset.self, at: property.index) else {
                continue
            }
            let current = values[property.index]
            if property.relationshipInfo?.isToMany == true {
                values[property.index] = UnloadedRelationship()
            } else {
                let target = property.relatedModels(in: current).first?.storage.identifier
                values[property.index] = ToOneFault(target: target)
            }
        }
    }

    // MARK: - Saving and Rolling Back

    /// Marks the current values as saved.
    final func commit() {
        isSaved = true
        changedSlots = []
    }

    /// Marks the model as it was last saved, once its context has put back the saved values of its changed slots.
    final func revert() {
        changedSlots = []
        isDeleted = false
    }
}

extension ModelStorage {
    /// The storage an unretained reference from `_$swiftDataStorage` or `_ModelBacking` refers to.
    @inlinable
    static func from(_ reference: Unmanaged<AnyObject>) -> ModelStorage {
        // Only SwiftData's backing data, a `ModelStorage`, hands out a reference.
        unsafeDowncast(reference.takeUnretainedValue(), to: ModelStorage.self)
    }

    /// SwiftData's backing data behind a model, or nil for backing data of another kind.
    @inlinable
    static func behind(_ model: some PersistentModel) -> ModelStorage? {
        model._$swiftDataStorage.map(from)
    }

    /// Calls `body` with SwiftData's backing data behind a model, without retaining it (the model holds it), or
    /// returns nil for backing data of another kind. Model accessors reach the storage this way.
    @inlinable
    static func withStorage<Result>(behind model: some PersistentModel, _ body: (ModelStorage) -> Result) -> Result? {
        guard let reference = model._$swiftDataStorage else { return nil }
        return reference._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: ModelStorage.self)) }
    }

    /// SwiftData's backing data behind a model, which must be SwiftData's.
    static func of<Model: PersistentModel>(_ model: Model) -> ModelStorage { required(behind(model), of: Model.self) }

    /// SwiftData's backing data behind the backing data a `@Model` subclass reaches through its root class.
    static func of<Model>(_ backing: _ModelBacking<Model>) -> ModelStorage {
        required(backing.storage, of: Model.self)
    }

    private static func required(_ storage: ModelStorage?, of modelType: Any.Type) -> ModelStorage {
        guard let storage else { preconditionFailure("\(modelType) uses a BackingData that SwiftData did not create") }
        return storage
    }
}
