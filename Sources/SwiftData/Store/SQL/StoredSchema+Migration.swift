/// What every SQL store's inferred migration decides the same way: which old table each entity takes its rows
/// from, which relationship changes it refuses, and where each new column's values come from.
extension StoredSchema {
    /// The old entity each new entity takes its rows from: the same name or, when exactly one entity disappears
    /// and one appears and most of their columns match, the renamed one. Entities of a hierarchy share their
    /// root's table, so only roots are paired.
    package func sources(for entities: [Schema.Entity], layouts: [String: SQLTableLayout]) -> [String: Entity] {
        let roots = entities.filter { $0.tableName == $0.name }
        var result: [String: Entity] = [:]
        for entity in roots {
            if let match = self.entity(named: entity.name) { result[entity.name] = match }
        }
        let newOnly = roots.filter { result[$0.name] == nil }
        let oldOnly = self.entities.filter { stored in !roots.contains { $0.name == stored.name } }
        if newOnly.count == 1, oldOnly.count == 1, let layout = layouts[newOnly[0].name] {
            let oldNames = Set(oldOnly[0].columns.map(\.name))
            let shared = layout.columns.filter { oldNames.contains($0.name) }.count
            if shared * 2 >= max(1, oldOnly[0].columns.count) { result[newOnly[0].name] = oldOnly[0] }
        }
        return result
    }

    /// Refuses models that move into or out of an inheritance hierarchy: their rows would have to move between
    /// tables (a hierarchy shares its root's table), which no store does yet, and would otherwise be lost.
    ///
    /// - Throws: `MigrationRefusal` naming the model.
    package func checkHierarchyMoves(of entities: [Schema.Entity]) throws {
        for entity in entities {
            let storedAsRoot = self.entity(named: entity.name) != nil
            let storedInHierarchy = self.entities.contains { $0.subentities?[entity.name] != nil }
            let isRoot = entity.tableName == entity.name
            if storedAsRoot && !isRoot {
                throw MigrationRefusal(
                    "\(entity.name) moves into \(entity.rootEntity.name)'s inheritance hierarchy; its rows would "
                        + "change tables, which migrations do not do yet: copy them in a custom migration stage")
            }
            if storedInHierarchy && isRoot {
                throw MigrationRefusal(
                    "\(entity.name) leaves its inheritance hierarchy; its rows would change tables, which "
                        + "migrations do not do yet: copy them in a custom migration stage")
            }
        }
    }

    /// Refuses relationships whose links would move between a foreign key and a join table (to-one ↔ to-many
    /// changes), which no store converts, rather than lose the links.
    ///
    /// - Throws: `MigrationRefusal` naming the relationship.
    package func checkRelationshipStorage(of entities: [Schema.Entity], sources: [String: Entity]) throws {
        let oldJoinTables = Set(self.entities.flatMap(\.joinTables))
        for entity in entities {
            let source = sources[entity.name]
            for property in entity.persistedProperties {
                guard let info = property.relationshipInfo else { continue }
                let names = [property.name, property.schemaProperty.originalName]
                let hadForeignKey = source?.columns.contains { $0.isForeignKey && names.contains($0.property) } ?? false
                let hadJoinTable = names.contains { oldJoinTables.contains("\(source?.name ?? entity.name)_\($0)") }
                let changed: Bool
                switch info.storage {
                case .foreignKey: changed = hadJoinTable
                case .joinTable(_, let ownerColumn, _): changed = ownerColumn == "owner" && hadForeignKey
                case .inverseForeignKey: changed = hadForeignKey || hadJoinTable
                }
                if changed {
                    throw MigrationRefusal(
                        "\(entity.name).\(property.name) changes how its links are stored (to-one ↔ to-many); "
                            + "move the links in a custom migration stage through a new relationship"
                    )
                }
            }
        }
    }
}

extension SQLTableLayout {
    /// The property a column of an entity's table stores: the entity's own, or that of the hierarchy member among
    /// `entities` that declares it; nil for a column that stores no property (a hierarchy's type column).
    package static func owningProperty(
        of column: Column, in entity: Schema.Entity, among entities: [Schema.Entity]
    ) -> Schema.Entity.Property? {
        if column.propertyIndex >= 0 { return entity.persistedProperties[column.propertyIndex] }
        for member in entities where member.tableName == entity.tableName && member !== entity {
            for property in member.persistedProperties where column.name.hasPrefix(property.name) {
                let suffix = column.name.dropFirst(property.name.count)
                if suffix.isEmpty || suffix.hasPrefix(".") { return property }
            }
        }
        return nil
    }

    /// The value a property's declared default gives one of its columns (a composite attribute has one per field),
    /// or nil when it declares none.
    ///
    /// - Throws: what encoding the default value throws.
    package static func defaultValue(of property: Schema.Entity.Property, column: Column) throws -> SQLValue? {
        guard let value = property.defaultValue, let codec = property.codec else { return nil }
        let values = try codec.encodeColumns(value)
        let suffix = String(column.name.dropFirst(property.name.count))
        guard let index = codec.columnShapes.firstIndex(where: { $0.suffix == suffix }) else { return nil }
        return values[index]
    }

    /// The name a column had before its property was renamed: the property's `originalName` with the column's
    /// field suffix.
    package static func originalName(of column: Column, property: Schema.Entity.Property) -> String {
        property.schemaProperty.originalName + String(column.name.dropFirst(property.name.count))
    }
}

/// Where each column of a table's new layout takes its values from, decided for the whole table before a store
/// changes anything (`StoredSchema.Entity.columnSources(for:entity:among:)`).
package struct ColumnSources {
    /// The stored column each new column takes its values from, by the new column's name; a new column without one
    /// starts empty (NULL, a default, or a custom stage's values).
    package var columns: [String: StoredSchema.Column] = [:]
    /// New presence columns of composite attributes that were required and became optional: every stored row holds
    /// a value, so each row's presence is 1.
    package var presentValues: Set<String> = []
}

extension StoredSchema.Entity {
    /// Where each of a layout's columns takes its values from. A property's column comes from its `originalName`'s
    /// column when the property was renamed and that column is stored, even where another property now has the old
    /// name (chained renames: `b` from `a` while `c` takes `b`'s column), and from its own name's column otherwise.
    ///
    /// - Throws: `MigrationRefusal` when two new columns would take one stored column.
    package func columnSources(
        for layout: SQLTableLayout, entity: Schema.Entity, among entities: [Schema.Entity]
    ) throws -> ColumnSources {
        var sources = ColumnSources()
        var takers: [String: String] = [:]
        for column in layout.columns {
            let property = SQLTableLayout.owningProperty(of: column, in: entity, among: entities)
            let originalName = property.map { SQLTableLayout.originalName(of: column, property: $0) } ?? column.name
            let renamed = originalName == column.name ? nil : columns.first { $0.name == originalName }
            guard let source = renamed ?? columns.first(where: { $0.name == column.name }) else {
                // The presence column of a composite attribute that was required: its fields' columns are stored.
                if let property, property.isOptional, column.name == property.name,
                    (property.codec?.columnShapes.count ?? 0) > 1,
                    columns.contains(where: {
                        $0.property == property.schemaProperty.originalName || $0.property == property.name
                    })
                {
                    sources.presentValues.insert(column.name)
                }
                continue
            }
            if let other = takers.updateValue(column.name, forKey: source.name) {
                throw MigrationRefusal(
                    "\(entity.name)'s columns \(other) and \(column.name) would both take the stored column "
                        + "\(source.name); rename one in a custom migration stage")
            }
            sources.columns[column.name] = source
        }
        return sources
    }
}

/// What a migration does with join tables (`StoredSchema.joinTableChanges(for:sources:)`), decided the same way by
/// every SQL store, which then runs its own SQL.
package struct JoinTableChanges {
    /// A join table to make, and where the links of its relationship were kept before, if anywhere.
    package struct NewTable {
        package let name: String
        /// The stored table and foreign-key column that held the relationship's links while it shared its inverse
        /// with no other relationship: the new table takes them, so the migration loses no link.
        package let formerLinks: (table: String, column: String)?
    }

    /// Tables kept under a new name: a relationship renamed with `originalName`, or its entity renamed.
    package var renamed: [(from: String, to: String)] = []
    package var created: [NewTable] = []
    /// Tables of relationships the new schema no longer has.
    package var dropped: [String] = []
}

extension StoredSchema {
    /// How the join tables change from this schema to `entities`': kept, renamed after a relationship's
    /// `originalName` or its entity's rename, made, or dropped.
    package func joinTableChanges(for entities: [Schema.Entity], sources: [String: Entity]) -> JoinTableChanges {
        let oldTables = Set(self.entities.flatMap(\.joinTables))
        var changes = JoinTableChanges()
        var kept: Set<String> = []
        for entity in entities {
            for property in entity.persistedProperties {
                guard case .joinTable(let table, let ownerColumn, _) = property.relationshipInfo?.storage,
                    ownerColumn == "owner"
                else { continue }
                let renamed = "\(sources[entity.name]?.name ?? entity.name)_\(property.schemaProperty.originalName)"
                if oldTables.contains(table) {
                    kept.insert(table)
                } else if oldTables.contains(renamed) {
                    kept.insert(renamed)
                    changes.renamed.append((renamed, table))
                } else {
                    // A hierarchy is recorded under its root, which holds its subclasses' relationships too.
                    let former = formerLinks(of: property, formerEntity: sources[entity.rootEntity.name])
                    changes.created.append(JoinTableChanges.NewTable(name: table, formerLinks: former))
                }
            }
        }
        changes.dropped = oldTables.subtracting(kept).sorted()
        return changes
    }

    /// Where a to-many relationship that shares its inverse with others kept its links while it was stored without
    /// a table of its own (alone with its inverse, or in stores written before shared inverses had tables): its
    /// inverse's foreign key. Nil for a relationship the former schema did not have; a former schema that did not
    /// record its to-many relationships is taken to have had it. The column may be missing from the stored table:
    /// a store checks before reading it.
    private func formerLinks(of property: Schema.Entity.Property, formerEntity: Entity?) -> (
        table: String, column: String
    )? {
        guard let info = property.relationshipInfo, info.sharesInverse, let inverse = info.inverse,
            case .foreignKey(let column) = inverse.relationshipInfo?.storage, let formerEntity
        else { return nil }
        let formerNames = [property.name, property.schemaProperty.originalName]
        if let former = formerEntity.toManyRelationships, !former.contains(where: formerNames.contains) { return nil }
        return (info.destination.tableName, column)
    }
}
