extension SQLiteStore {
    /// The statement that inserts a row of an entity or, when its unique value is taken, updates the row that
    /// holds it: `INSERT … ON CONFLICT(columns) DO UPDATE SET … WHERE swiftdata_overwritten_row("_pk")` (the
    /// dialect's `upsertClause`, whose update names the row it overwrites). One statement does what otherwise takes
    /// a lookup and then an insert or an update. When the entity has no column to update, the statement does
    /// nothing on a conflict, and the row's key is looked up after it.
    ///
    /// Nil unless the statement gives exactly the lookup's result: the entity has one uniqueness constraint, on one
    /// property whose columns (one per field of a composite attribute) cannot be NULL (`ON CONFLICT` never matches
    /// NULLs, the lookup does); nothing can refer to its rows (no relationship of it or to it), since references to
    /// an inserted model are written with the key it was given before any row is written; and it is not part of an
    /// inheritance hierarchy and has no external storage, whose files an update must account for before it runs.
    func upsertSQL(for entity: Schema.Entity) -> String? {
        guard let (layout, conflict) = upsertConflict(of: entity) else { return nil }
        // Every column takes the inserted model's value, as the lookup's update writes them. The unique ones
        // change only when equal values can differ: a canonically equivalent spelling of a string replaces the
        // stored one, and so does -0.0 a stored 0.0. Equal integers and bytes are the same value, and leaving
        // their column out spares updating its index (a sixth of the statement's time).
        let conflictNames = conflict.map(\.name)
        let updated = layout.columns
            .filter { !conflictNames.contains($0.name) || !Self.equalValuesAreIdentical(in: $0) }
            .map(\.name)
        let upsert =
            layout.insertSQL + dialect.upsertClause(conflictColumns: conflictNames, updatedColumns: updated)
        // The update names the row it overwrites, which spares looking the row up by its unique value after the
        // statement (see `SQLiteConnection.overwrittenRowFunction`). A statement that does nothing on a conflict
        // has no update to name it: the lookup finds it.
        guard !updated.isEmpty else { return upsert }
        return upsert + " WHERE \(SQLiteConnection.overwrittenRowFunction)(\(quoted(SQLTableLayout.primaryKey)))"
    }

    /// True when the entity's inserts are written with `upsertSQL(for:)`.
    func writesInsertsWithUpsert(_ entity: Schema.Entity) -> Bool {
        upsertConflict(of: entity) != nil
    }

    /// The entity's layout and the columns of its one uniqueness constraint, when `upsertSQL(for:)` serves it.
    private func upsertConflict(of entity: Schema.Entity) -> (SQLTableLayout, [SQLTableLayout.Column])? {
        guard entity.uniquenessConstraints.count == 1, entity.uniquenessConstraints[0].count == 1,
            entity.superentityType == nil, entity.knownSubentities.isEmpty,
            !entity.hasRelationships, !entity.usesExternalStorage,
            !isReferenced(entity),
            let layout = layouts[entity.name],
            case let columns = layout.columns(of: entity.uniquenessConstraints[0], in: entity),
            !columns.isEmpty, !columns.contains(where: \.isNullable)
        else { return nil }
        return (layout, columns)
    }

    /// True when values of the column that compare equal are the same value.
    private static func equalValuesAreIdentical(in column: SQLTableLayout.Column) -> Bool {
        column.sqlType == "INTEGER" || column.sqlType == "BLOB"
    }

    /// True when a relationship of the store can refer to rows of the entity: one whose destination is in the
    /// entity's hierarchy, since a relationship to a class can hold its subclasses and the reverse.
    func isReferenced(_ entity: Schema.Entity) -> Bool {
        entities.contains { other in
            other.persistedProperties.contains { $0.relationshipInfo?.destination.rootEntity === entity.rootEntity }
        }
    }
}
