// History of rows a save changes beyond the models its context lists: rows an insert overwrote through a
// uniqueness constraint (Apple's upsert), and rows whose links to deleted rows the store cleared.

extension SQLiteSaveWriter {
    /// Notes that the inserted model at `position` overwrote the row with `key`, for history.
    mutating func noteRewrite(at position: Int, key: Int64, plan: EntityPlan) {
        rewrites.append(InsertedRowRewrite(position: position, ofStoredRow: !isNew(key, table: plan.table)))
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
