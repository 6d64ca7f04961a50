/// Rows that `delete(model:where:)` deleted without loading their models, by entity; the next save deletes them.
///
/// Loading a model only to delete it cost 25 times what deleting its row costs. When no delete rule of the entity
/// needs the models (no `.cascade` or `.deny` relationship) and the predicate runs in SQL, the context keeps the
/// matching rows' keys instead. Until the save, fetches leave those rows out in SQL, and a row that is loaded
/// anyway (through a relationship, say) becomes an ordinary pending deletion of its model.
struct BatchDeletions {
    private var byEntity: [String: (entity: Schema.Entity, keys: Set<Int64>)] = [:]
    /// The keys of each entity in the form a fetch leaves them out with, made when a fetch first needs them after
    /// a change: every fetch of the entity until the save needs the same.
    private var keySets: [String: SQLiteKeySet] = [:]

    var isEmpty: Bool { byEntity.isEmpty }

    /// The deleted keys of an entity as a key set, or nil when it has none.
    mutating func keySet(of entity: Schema.Entity) -> SQLiteKeySet? {
        if let cached = keySets[entity.name] { return cached }
        guard let keys = byEntity[entity.name]?.keys else { return nil }
        let keySet = SQLiteKeySet(keys)
        keySets[entity.name] = keySet
        return keySet
    }

    /// Every entity with deleted keys, with its keys in ascending order.
    var all: [(entity: Schema.Entity, keys: [Int64])] {
        byEntity.values.map { ($0.entity, $0.keys.sorted()) }
    }

    mutating func add(_ keys: some Collection<Int64>, of entity: Schema.Entity) {
        // Sized once: growing the set for 50,000 keys rehashed it a dozen times.
        byEntity[entity.name, default: (entity, [])].keys.reserveCapacity(
            (byEntity[entity.name]?.keys.count ?? 0) + keys.count)
        byEntity[entity.name, default: (entity, [])].keys.formUnion(keys)
        keySets[entity.name] = nil
    }

    /// Takes a key back (its row was loaded, or the deletion was undone); true when it was there.
    @discardableResult
    mutating func remove(_ key: Int64, of entity: Schema.Entity) -> Bool {
        guard byEntity[entity.name]?.keys.remove(key) != nil else { return false }
        if byEntity[entity.name]?.keys.isEmpty == true { byEntity[entity.name] = nil }
        keySets[entity.name] = nil
        return true
    }

    mutating func removeAll() {
        byEntity = [:]
        keySets = [:]
    }
}

extension ModelContext {
    /// Deletes the rows a predicate selects without loading their models, when nothing needs the models: the
    /// entity is not part of an inheritance hierarchy, no relationship of it has a `.cascade` or `.deny` rule,
    /// the predicate runs in SQL, and the context has no unsaved changes of the entity. Registered models among
    /// the matches are deleted as usual. Returns false, doing nothing, when the models are needed.
    func deleteRowsWithoutLoading<T: PersistentModel>(of type: T.Type, where predicate: Predicate<T>?) throws -> Bool {
        let entity = Schema.Entity.of(T.self)
        guard entity.superentityType == nil, entity.knownSubentities.isEmpty,
            !entity.persistedProperties.contains(where: {
                let rule = $0.relationshipInfo?.declaration.deleteRule
                return rule == .cascade || rule == .deny
            })
        else { return false }
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        descriptor.allowsInMemoryEvaluation = false
        guard let plan = try? FetchPlan(descriptor: descriptor, context: self), !plan.includesPending,
            let keys = try? plan.primaryKeys()
        else { return false }
        var unloaded: [Int64] = []
        if registered.count == 0 {
            // No model of the context is in memory: every row is deleted without one.
            unloaded = keys
        } else {
            for key in keys {
                let identifier = plan.store.identifier(entityName: entity.name, primaryKey: key)
                if let model = registered[identifier]?.model {
                    delete(model)
                } else {
                    unloaded.append(key)
                }
            }
        }
        guard !unloaded.isEmpty else { return true }
        batchDeletions.add(unloaded, of: entity)
        undoManager?.registerUndo(withTarget: self) { context in
            for key in unloaded where !context.batchDeletions.remove(key, of: entity) {
                // The row was loaded since, and its model deleted the usual way: bring the model back.
                let identifier = plan.store.identifier(entityName: entity.name, primaryKey: key)
                if let model = context.registered[identifier]?.model { context.insertModel(model) }
            }
        }
        scheduleAutosave()
        return true
    }
}
