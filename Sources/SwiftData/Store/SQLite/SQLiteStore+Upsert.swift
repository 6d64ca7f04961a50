extension SQLiteStore {
    /// The statement that inserts a row of an entity or, when its unique value is taken, updates the row that
    /// holds it: `INSERT … ON CONFLICT(column) DO UPDATE SET …`. One statement does what otherwise takes a lookup
    /// and then an insert or an update; the row's key is looked up only after a conflict.
    ///
    /// Nil unless the statement gives exactly the lookup's result: the entity has one uniqueness constraint, on one
    /// column that cannot be NULL (`ON CONFLICT` never matches NULLs, the lookup does); nothing can refer to its
    /// rows (no relationship of it or to it), since references to an inserted model are written with the key it
    /// was given before any row is written; and it is not part of an inheritance hierarchy and has no external
    /// storage, whose files an update must account for before it runs.
    func upsertSQL(for entity: Schema.Entity) -> String? {
        guard entity.uniquenessConstraints.count == 1, entity.uniquenessConstraints[0].count == 1,
            entity.superentityType == nil, entity.subentities.isEmpty,
            !entity.storedProperties.contains(where: { $0.isRelationship || $0.usesExternalStorage }),
            !entities.contains(where: { other in
                other.storedProperties.contains { $0.relationshipInfo?.destination === entity }
            }),
            let layout = layouts[entity.name],
            let column = layout.columns.first(where: { $0.name == entity.uniquenessConstraints[0][0] }),
            !column.isNullable
        else { return nil }
        // Every column takes the inserted model's value, the unique one included (a canonically equivalent
        // spelling replaces the stored one), as the lookup's update writes them.
        let updates = layout.columns.map { "\(quoted($0.name)) = excluded.\(quoted($0.name))" }
        return layout.insertSQL + " ON CONFLICT(\(quoted(column.name))) DO UPDATE SET "
            + updates.joined(separator: ", ")
    }
}
