/// Rows that `delete(model:where:)` deleted without loading their models, by entity; the next save deletes them.
///
/// Loading a model only to delete it cost 25 times what deleting its row costs. When no delete rule of the entity
/// needs the models (no `.cascade` or `.deny` relationship) and the predicate runs in SQL, the context keeps the
/// matching rows' identifiers instead. Until the save, fetches leave those rows out in SQL, and a row that is loaded
/// anyway (through a relationship, say) becomes an ordinary pending deletion of its model.
struct BatchDeletions {
    /// The deleted rows of one entity.
    ///
    /// Kept as the list the read gave until one row must be taken back: the common path (delete, then save) then
    /// neither hashes nor copies an identifier per row. The first `remove(_:of:)` turns the list into a set.
    private struct Rows {
        let entity: Schema.Entity
        /// The rows as added, while no row was taken back: distinct, because a read of an entity leaves out the
        /// rows already deleted (see `excludedRows(of:)`).
        var list: [PersistentIdentifier] = []
        /// The rows, once one was taken back.
        var members: Set<PersistentIdentifier>?

        var isEmpty: Bool { members?.isEmpty ?? list.isEmpty }
        var all: [PersistentIdentifier] { members.map(Array.init) ?? list }

        mutating func add(_ identifiers: some Collection<PersistentIdentifier>) {
            if members != nil {
                members!.formUnion(identifiers)
            } else {
                list.append(contentsOf: identifiers)
            }
        }

        mutating func remove(_ identifier: PersistentIdentifier) -> Bool {
            if members == nil {
                members = Set(list)
                list = []
            }
            return members!.remove(identifier) != nil
        }
    }

    private var byEntity: [String: Rows] = [:]
    /// The identifiers of each entity as the rows a read leaves out, made when a fetch first needs them after a
    /// change: every fetch of the entity until the save needs the same.
    private var excluded: [String: ExcludedRows] = [:]

    var isEmpty: Bool { byEntity.isEmpty }

    /// The deleted rows of an entity, for a read to leave out, or nil when it has none.
    mutating func excludedRows(of entity: Schema.Entity) -> ExcludedRows? {
        if let cached = excluded[entity.name] { return cached }
        guard let rows = byEntity[entity.name] else { return nil }
        let excludedRows = ExcludedRows(rows.members ?? Set(rows.list))
        excluded[entity.name] = excludedRows
        return excludedRows
    }

    /// Every entity with deleted rows, with their identifiers in no particular order.
    var all: [(entity: Schema.Entity, identifiers: [PersistentIdentifier])] {
        byEntity.values.map { ($0.entity, $0.all) }
    }

    /// Adds rows of an entity that no read of it since the last change could have returned (none is deleted yet).
    mutating func add(_ identifiers: some Collection<PersistentIdentifier>, of entity: Schema.Entity) {
        byEntity[entity.name, default: Rows(entity: entity)].add(identifiers)
        excluded[entity.name] = nil
    }

    /// Takes a row back (it was loaded, or the deletion was undone); true when it was there.
    @discardableResult
    mutating func remove(_ identifier: PersistentIdentifier, of entity: Schema.Entity) -> Bool {
        guard byEntity[entity.name]?.remove(identifier) == true else { return false }
        if byEntity[entity.name]?.isEmpty == true { byEntity[entity.name] = nil }
        excluded[entity.name] = nil
        return true
    }

    mutating func removeAll() {
        byEntity = [:]
        excluded = [:]
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
            let identifiers = try? plan.storedIdentifiers()
        else { return false }
        var unloaded: [PersistentIdentifier] = []
        if registered.count == 0 {
            // No model of the context is in memory: every row is deleted without one.
            unloaded = identifiers
        } else {
            for identifier in identifiers {
                if let model = registered[identifier]?.model {
                    delete(model)
                } else {
                    unloaded.append(identifier)
                }
            }
        }
        guard !unloaded.isEmpty else { return true }
        batchDeletions.add(unloaded, of: entity)
        noteLocalChange(.rowsDeleted(entity))
        undoManager?.registerUndo(withTarget: self) { context in
            for identifier in unloaded where !context.batchDeletions.remove(identifier, of: entity) {
                // The row was loaded since, and its model deleted the usual way: bring the model back.
                if let model = context.registered[identifier]?.model { context.insertModel(model) }
            }
            context.noteLocalChange(.rowsDeleted(entity))
        }
        scheduleAutosave()
        return true
    }
}
