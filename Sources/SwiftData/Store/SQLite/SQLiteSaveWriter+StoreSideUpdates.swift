// History of rows a save changes beyond the models its context lists: rows an insert overwrote through a
// uniqueness constraint (Apple's upsert), and rows whose links to deleted rows the store cleared.

extension SQLiteSaveWriter {
    /// An inserted model that overwrote a row instead of adding one.
    struct Rewrite {
        /// The model's position among the save's inserted models.
        let position: Int
        /// True when the row was stored before this save: history records it as an update of that row. Otherwise
        /// an earlier insert of this save added the row, and history records that insert only.
        let ofStoredRow: Bool
    }

    /// Notes that the inserted model at `position` overwrote the row with `key`, for history.
    mutating func noteRewrite(at position: Int, key: Int64, plan: EntityPlan) {
        rewrites.append(Rewrite(position: position, ofStoredRow: !isNew(key, table: plan.table)))
    }

    /// True when this save gave the key out: the keys a save gives start above every key its table gave before, so
    /// a smaller key is a row stored before the save.
    func isNew(_ key: Int64, table: ObjectIdentifier) -> Bool {
        guard let keys = givenKeys[table] else { return false }
        return key >= keys.first
    }

    /// Notes, for history, the rows of `entity`'s table that the condition selects, whose `property` is about to
    /// lose its links to rows this save deletes: the store clears those links itself, in rows the context may never
    /// have loaded. Rows this save inserts or deletes are left out, since history records them as such.
    ///
    /// - Throws: The store's error when the rows cannot be read.
    mutating func noteUnlinkedRows(
        of entity: Schema.Entity, property: Schema.Entity.Property,
        where condition: (sql: String, bindings: [SQLValue])
    ) throws {
        guard !store.isMigrationStore, let layout = store.layouts[entity.name] else { return }
        let hasTypes = layout.typeColumnPosition != nil
        let sql =
            "SELECT \(quoted(SQLTableLayout.primaryKey))"
            + (hasTypes ? ", \(quoted(SQLTableLayout.typeColumn))" : "")
            + " FROM \(quoted(layout.tableName)) WHERE \(condition.sql)"
        let rows = try statement(sql).rows(condition.bindings)
        guard !rows.isEmpty else { return }
        let table = ObjectIdentifier(entity.rootEntity)
        let deleted =
            deletedRowKeys
            ?? Set(
                deletedRows.lazy.flatMap { deleted in
                    let table = ObjectIdentifier(deleted.entity.rootEntity)
                    return deleted.keys.lazy.map { RowKey(table: table, key: $0) }
                })
        deletedRowKeys = deleted
        // In a table shared by a hierarchy, each row is recorded as a change of its own class: that class's entity
        // and its slot of the property, found once per class.
        var classes: [String: (entity: Schema.Entity, slots: SlotSet)?] = [:]
        let ownSlots: SlotSet = [property.index]
        for row in rows {
            guard case .integer(let key) = row[0], !isNew(key, table: table),
                !deleted.contains(RowKey(table: table, key: key))
            else { continue }
            guard hasTypes, case .text(let name) = row[1], name != entity.name else {
                unlinkedRows.note(key, of: entity, slots: ownSlots)
                continue
            }
            if classes[name] == nil {
                classes[name] = store.entities.first { $0.name == name }.flatMap { rowEntity in
                    rowEntity.property(named: property.name).map { (rowEntity, [$0.index]) }
                }
            }
            guard let (rowEntity, slots) = classes[name] ?? nil else { continue }
            unlinkedRows.note(key, of: rowEntity, slots: slots)
        }
    }
}

/// Updates of rows a save changed beyond the models its context listed: each row once, with every property that
/// changed, in the order first noted.
struct StoreSideUpdates {
    /// The rows with the slots of their changed properties. A row taken into a listed model's update has none left.
    private(set) var rows: [(entity: Schema.Entity, key: Int64, slots: SlotSet)] = []
    /// Each row's position in `rows`.
    private var positions: [RowKey: Int] = [:]

    var isEmpty: Bool { rows.isEmpty }

    /// Notes that the row with `key`, of `entity`, changed the properties of the given slots.
    mutating func note(_ key: Int64, of entity: Schema.Entity, slots: SlotSet) {
        let row = RowKey(table: ObjectIdentifier(entity.rootEntity), key: key)
        if let position = positions[row] {
            for slot in slots { rows[position].slots.insert(slot) }
            return
        }
        positions[row] = rows.count
        rows.append((entity, key, slots))
    }

    /// Takes the changed properties noted for a row, so that the update of the row's listed model records them and
    /// the row is not recorded twice.
    mutating func take(_ key: Int64, of entity: Schema.Entity) -> SlotSet? {
        let row = RowKey(table: ObjectIdentifier(entity.rootEntity), key: key)
        guard let position = positions.removeValue(forKey: row) else { return nil }
        defer { rows[position].slots = SlotSet() }
        return rows[position].slots
    }
}

/// A row of a table, by the table's root entity and the row's key.
struct RowKey: Hashable {
    let table: ObjectIdentifier
    let key: Int64
}

/// Groups updates into runs of one entity that changed the same properties (a save of many edited models), each
/// recorded as one group whose property names are made once.
struct UpdateRuns {
    private var entity: Schema.Entity?
    private var slots = SlotSet()
    private var names: [String] = []
    /// The run's keys, appended in place: a copy of a run would copy its keys on every model.
    private var keys: [Int64] = []

    /// Adds the update of the row with `key`, of `entity`, that changed the properties of the given slots.
    mutating func append(_ key: Int64, of entity: Schema.Entity, slots: SlotSet, to recorded: inout RecordedChanges) {
        if entity !== self.entity || slots != self.slots {
            finish(to: &recorded)
            let properties = entity.persistedProperties
            self.entity = entity
            self.slots = slots
            names = slots.compactMap { $0 < properties.count ? properties[$0].name : nil }
        }
        keys.append(key)
    }

    /// Records the last run.
    mutating func finish(to recorded: inout RecordedChanges) {
        if let entity { recorded.appendUpdates(entityName: entity.name, properties: names, keys: keys) }
        entity = nil
        keys = []
    }
}
