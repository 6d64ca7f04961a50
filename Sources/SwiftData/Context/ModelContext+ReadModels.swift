extension ModelContext {
    /// The models of the rows a query selects, in order, with the rows' keys: the models this context holds,
    /// refreshed as `materialize(_:entity:store:)` refreshes them, and new models for the other rows. A query with
    /// `properties` reads only those properties' columns (and every to-one relationship's).
    ///
    /// For an entity whose rows decode without code of the app (`Schema.Entity.decodesPlainly(in:)`), reading
    /// every column, a row that no model holds is decoded straight from SQLite into its new model's slots while
    /// the statement is on it, with no copy of its values in between: that runs no code of the app, which must not
    /// run while the read holds the store's connection. A held model's refresh notifies its observers, so it waits
    /// until the read is over, and until every new model is registered: an observer that fetches finds them rather
    /// than making second models of the same rows. Other reads keep every row's values, then make the models.
    ///
    /// With `alsoReading`, the result also has each row's value at that column position, in order.
    ///
    /// - Throws: like `materialize(_:entity:store:)`; a row that fails to decode leaves no new model registered.
    func readModels(
        of entity: Schema.Entity, store: SQLiteStore, layout: SQLiteTableLayout, query: SQLQuery,
        properties: Set<Int>? = nil, alsoReading column: Int? = nil
    ) throws -> (keys: [Int64], models: [any PersistentModel], columnValues: [SQLiteValue]) {
        if properties != nil { holdsUnfetchedAttributes = true }
        guard properties == nil, entity.decodesPlainly(in: layout) else {
            let rows = try store.fetchRows(entity: entity, query: query, properties: properties)
            // Into a context that holds no model, every row's model is new: the rows have distinct keys.
            let isUnregistered = registered.count == 0
            reserveRegistrations(rows.count)
            let models = try rows.map {
                try materialize($0, entity: entity, store: store, layout: layout, isUnregistered: isUnregistered)
            }
            return (rows.map(\.primaryKey), models, column.map { column in rows.map { $0.values[column] } } ?? [])
        }
        let holdsModels = registered.count > 0
        var keys: [Int64] = []
        var columnValues: [SQLiteValue] = []
        // The slots of the new models, in order, and the rows of held models with their positions.
        var newSlots: [ModelSlots] = []
        var heldRows: [(position: Int, row: FetchedRow)] = []
        do {
            try store.forEachRow(entity: entity, query: query) { row in
                let key = row.primaryKey
                if let column { columnValues.append(row[column]) }
                if holdsModels, registered[store.identifier(entityName: entity.name, primaryKey: key)] != nil {
                    let values = (0..<layout.columns.count).map { row[$0] }
                    heldRows.append((keys.count, FetchedRow(primaryKey: key, values: RowValues(values))))
                } else {
                    newSlots.append(try self.newSlots(of: entity, layout: layout) { row[$0] })
                }
                keys.append(key)
            }
        } catch {
            for var slots in newSlots { slots.release() }
            throw error
        }
        // Nothing registered these rows' models since the read looked: no code of the app has run.
        reserveRegistrations(newSlots.count)
        func newModel(_ key: Int64, _ slots: ModelSlots) -> any PersistentModel {
            registerNewModel(
                entity: entity, primaryKey: key, identifier: store.identifier(entityName: entity.name, primaryKey: key),
                slots: slots, isUnregistered: true)
        }
        guard !heldRows.isEmpty else { return (keys, zip(keys, newSlots).map(newModel), columnValues) }
        var models: [(any PersistentModel)?] = Array(repeating: nil, count: keys.count)
        var nextNew = newSlots.startIndex
        var nextHeld = heldRows.startIndex
        for position in keys.indices {
            if nextHeld < heldRows.endIndex, heldRows[nextHeld].position == position {
                nextHeld += 1
            } else {
                models[position] = newModel(keys[position], newSlots[nextNew])
                nextNew += 1
            }
        }
        for (position, row) in heldRows {
            models[position] = try materialize(row, entity: entity, store: store, layout: layout)
        }
        return (keys, models.map { $0! }, columnValues)
    }

    /// The slots of a new model of a row, whose column values `column` gives by position in the entity's
    /// layout: each attribute decoded from its columns, each relationship in its stored state. An attribute that
    /// `loadedProperties` leaves out is marked not fetched.
    ///
    /// - Throws: like `materialize(_:entity:store:)`.
    func newSlots(
        of entity: Schema.Entity, layout: SQLiteTableLayout, loadedProperties: Set<Int>? = nil,
        column: (Int) -> SQLiteValue
    ) throws -> ModelSlots {
        try ModelSlots(count: entity.persistedProperties.count) { index -> Any in
            let property = entity.persistedProperties[index]
            if property.isRelationship { return try storedRelationship(property, layout: layout, column: column) }
            guard let range = layout.columnRangeByProperty[index] else { return property.unstoredValue }
            guard loadedProperties?.contains(index) ?? true else { return ModelStorage.NotFetched() }
            // One column, the common case, is decoded without an array of it.
            if range.count == 1 { return try decode(column(range.lowerBound), property: property, entity: entity) }
            return try decode(ArraySlice(range.map(column)), property: property, entity: entity)
        }
    }
}

extension Schema.Entity {
    /// True when a row of the entity decodes without code of the app and without reading files: no attribute has
    /// a type whose decoding the app wrote (`ValueCodec.decodesWithoutAppCode`) or keeps its value in external
    /// storage, and the table holds no other entity's rows (no type column says which class a row is).
    func decodesPlainly(in layout: SQLiteTableLayout) -> Bool {
        layout.typeColumnPosition == nil
            && persistedProperties.allSatisfy { property in
                property.isRelationship
                    || (!property.usesExternalStorage && (property.codec?.decodesWithoutAppCode ?? true))
            }
    }
}
