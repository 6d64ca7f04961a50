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
