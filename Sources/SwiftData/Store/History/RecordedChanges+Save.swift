/// Store-neutral parts of recording a save in a store's history: the rows a save changed beyond the models its
/// context lists (rows an insert overwrote through a uniqueness constraint, rows whose links to deleted rows the
/// store cleared), and the `RecordedChanges` of a whole save. Every SQL store records its saves with these.

/// An inserted model that overwrote a row rather than adding one, for history.
package struct InsertedRowRewrite {
    /// The inserted model's position among the save's inserted models.
    package let position: Int
    /// True when the row was stored before the save; false when an earlier insert of the same save added it.
    package let ofStoredRow: Bool

    package init(position: Int, ofStoredRow: Bool) {
        self.position = position
        self.ofStoredRow = ofStoredRow
    }
}

/// Updates of rows a save changed beyond the models its context listed: each row once, with every property that
/// changed, in the order first noted.
package struct StoreSideUpdates {
    /// The rows with the slots of their changed properties. A row taken into a listed model's update has none left.
    package private(set) var rows: [(entity: Schema.Entity, key: Int64, slots: SlotSet)] = []
    /// Each row's position in `rows`.
    private var positions: [RowKey: Int] = [:]

    /// No rows yet.
    package init() {}

    package var isEmpty: Bool { rows.isEmpty }

    /// The number of rows noted.
    package var count: Int { rows.count }

    /// Makes room for `total` rows without growing again.
    package mutating func reserveCapacity(_ total: Int) {
        rows.reserveCapacity(total)
        positions.reserveCapacity(total)
    }

    /// Notes that the row with `key`, of `entity`, changed the properties of the given slots.
    package mutating func note(_ key: Int64, of entity: Schema.Entity, slots: SlotSet) {
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
    package mutating func take(_ key: Int64, of entity: Schema.Entity) -> SlotSet? {
        let row = RowKey(table: ObjectIdentifier(entity.rootEntity), key: key)
        guard let position = positions.removeValue(forKey: row) else { return nil }
        defer { rows[position].slots = SlotSet() }
        return rows[position].slots
    }
}

/// A row of a table, by the table's root entity and the row's key.
package struct RowKey: Hashable {
    package let table: ObjectIdentifier
    package let key: Int64

    package init(table: ObjectIdentifier, key: Int64) {
        self.table = table
        self.key = key
    }
}

/// Groups updates into runs of one entity that changed the same properties (a save of many edited models), each
/// recorded as one group whose property names are made once.
package struct UpdateRuns {
    private var entity: Schema.Entity?
    private var slots = SlotSet()
    private var names: [String] = []
    /// The run's keys, appended in place: a copy of a run would copy its keys on every model.
    private var keys: [Int64] = []

    /// Adds the update of the row with `key`, of `entity`, that changed the properties of the given slots.
    package mutating func append(
        _ key: Int64, of entity: Schema.Entity, slots: SlotSet, to recorded: inout RecordedChanges
    ) {
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
    package mutating func finish(to recorded: inout RecordedChanges) {
        if let entity { recorded.appendUpdates(entityName: entity.name, properties: names, keys: keys) }
        entity = nil
        keys = []
    }
}

extension RecordedChanges {
    /// The changes one save made to a store, as its history transaction records them.
    ///
    /// An inserted model that overwrote a stored row through a uniqueness constraint is recorded as an update of
    /// that row naming every persisted property, since the store wrote them all; one that overwrote a row an
    /// earlier insert of the save added is part of that insert. A row whose links to deleted rows the store cleared
    /// is recorded as an update of the relationships that lost them. Each row is recorded once: a row the context
    /// also lists as updated has one update naming the properties of both.
    ///
    /// - Parameters:
    ///   - insertRuns: The inserted models' entities, as runs of consecutive positions.
    ///   - insertedKeys: The key of each inserted model, by position.
    ///   - rewrites: The inserted models that overwrote a row, in position order.
    ///   - updated: The updated models, whose changed slots name the properties the save wrote.
    ///   - storeSideUpdates: The rows whose links the store cleared, with the relationships that lost them.
    ///   - deleted: The deleted rows by entity, with `preserved` giving each one's preserved attribute values.
    package init(
        insertRuns: [(entity: Schema.Entity, positions: Range<Int>)], insertedKeys: [Int64],
        rewrites: [InsertedRowRewrite], updated: [ModelStorage], storeSideUpdates: StoreSideUpdates,
        deleted: [(entity: Schema.Entity, keys: [Int64])], preserved: [[Int64: [(String, [SQLValue])]]]
    ) {
        var recorded = RecordedChanges()
        var sideUpdates = storeSideUpdates
        // Sized once for the stored rows inserts overwrote: growing the table as they came rehashed it many times.
        sideUpdates.reserveCapacity(sideUpdates.count + rewrites.count(where: \.ofStoredRow))
        // Runs of inserted models of one entity make one group, less the inserts that overwrote a row.
        var nextRewrite = 0
        for (entity, positions) in insertRuns {
            var keys: [Int64] = []
            keys.reserveCapacity(positions.count)
            let allSlots = entity.allPersistedSlots
            for position in positions {
                if nextRewrite < rewrites.count, rewrites[nextRewrite].position == position {
                    if rewrites[nextRewrite].ofStoredRow {
                        sideUpdates.note(insertedKeys[position], of: entity, slots: allSlots)
                    }
                    nextRewrite += 1
                    continue
                }
                keys.append(insertedKeys[position])
            }
            recorded.appendInserts(entityName: entity.name, keys: keys)
        }
        var updates = UpdateRuns()
        for storage in updated {
            guard let key = storage.identifier.primaryKey else { continue }
            guard !sideUpdates.isEmpty, var slots = sideUpdates.take(key, of: storage.entity) else {
                updates.append(key, of: storage.entity, slots: storage.changedSlots, to: &recorded)
                continue
            }
            for slot in storage.changedSlots { slots.insert(slot) }
            updates.append(key, of: storage.entity, slots: slots, to: &recorded)
        }
        for row in sideUpdates.rows where !row.slots.isEmpty {
            updates.append(row.key, of: row.entity, slots: row.slots, to: &recorded)
        }
        updates.finish(to: &recorded)
        for (position, (entity, keys)) in deleted.enumerated() {
            for key in keys {
                recorded.appendDelete(entityName: entity.name, key: key, preserved: preserved[position][key] ?? [])
            }
        }
        self = recorded
    }
}

extension Schema.Entity {
    /// The attributes whose values a deletion keeps in history, in declaration order.
    package var attributesPreservedOnDeletion: [Property] {
        persistedProperties.filter { property in
            (property.schemaProperty as? Schema.Attribute)?.options.contains(.preserveValueOnDeletion) == true
        }
    }

    /// The slots of every persisted property: what an insert that overwrote a row wrote.
    var allPersistedSlots: SlotSet {
        var slots = SlotSet()
        for index in persistedProperties.indices { slots.insert(index) }
        return slots
    }
}
