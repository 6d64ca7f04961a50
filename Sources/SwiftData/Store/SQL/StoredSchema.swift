/// The schema a store was written with, as recorded in its metadata: enough to compare it with the code's schema
/// and to migrate its tables.
package struct StoredSchema: Codable, Equatable, Sendable {
    /// One entity's table.
    package struct Entity: Codable, Equatable, Sendable {
        package var name: String
        package var columns: [Column]
        package var uniquenessConstraints: [[String]]
        package var indices: [[String]]
        /// Join tables this entity's relationships own.
        package var joinTables: [String]
        /// The entity's attributes, for tools that read a store without its model code; nil in stores written
        /// before they were recorded.
        package var attributes: [Attribute]?
        /// The entity's relationships, including to-many ones, which have no column to tell them by; nil in stores
        /// written before they were recorded.
        package var relationships: [Relationship]?
        /// For the root of an inheritance hierarchy: each subclass stored in this table, with its parent class.
        package var subentities: [String: String]?

        /// The names of the entity's to-many relationships; nil when the store did not record its relationships.
        package var toManyRelationships: [String]? { relationships?.filter(\.isToMany).map(\.name) }
        /// A hash of the entity's shape and its properties' `hashModifier`s.
        package var hash: String
    }

    /// One attribute as declared: its Swift type and options.
    package struct Attribute: Codable, Equatable, Sendable {
        package var name: String
        package var type: String
        package var isOptional: Bool
        package var options: [String]
    }

    /// One relationship: its destination, inverse, delete rule and where its links are stored.
    package struct Relationship: Codable, Equatable, Sendable {
        package var name: String
        package var destination: String
        package var isToMany: Bool
        package var isOptional: Bool
        package var inverse: String?
        package var deleteRule: String
        /// The column of this entity's table that holds the related row's key (a to-one that owns its link).
        package var foreignKey: String?
        /// The join table that holds the links, with the column of this side's key and of the related row's.
        package var joinTable: String?
        package var ownerColumn: String?
        package var targetColumn: String?
        /// The column of the destination's table that holds this row's key (links stored on the other side).
        package var inverseForeignKey: String?
    }

    /// One column and the property it stores.
    package struct Column: Codable, Equatable, Sendable {
        package var name: String
        package var property: String
        package var sqlType: String
        package var isNullable: Bool
        package var isForeignKey: Bool
    }

    package var version: String
    package var entities: [Entity]

    package init(version: String, entities: [Entity]) {
        self.version = version
        self.entities = entities
    }

    /// The description of entities as the code defines them.
    package init(entities: [Schema.Entity], layouts: [String: SQLTableLayout], version: Schema.Version) {
        self.version = version.description
        self.entities = entities.compactMap { entity in
            // One entry per table: a hierarchy is described by its root, whose layout holds every column.
            guard entity.tableName == entity.name, let layout = layouts[entity.name] else { return nil }
            let columns = layout.columns.map {
                Column(
                    name: $0.name,
                    property: $0.propertyIndex >= 0 ? entity.persistedProperties[$0.propertyIndex].name : $0.name,
                    sqlType: $0.sqlType,
                    isNullable: $0.isNullable,
                    isForeignKey: $0.isForeignKey
                )
            }
            let modifiers = entity.persistedProperties.compactMap { property -> String? in
                let modifier =
                    (property.schemaProperty as? Schema.Attribute)?.hashModifier
                    ?? (property.schemaProperty as? Schema.Relationship)?.hashModifier
                return modifier.map { "\(property.name)=\($0)" }
            }
            let shape =
                columns.map { "\($0.name) \($0.sqlType) \($0.isNullable)" }
                + entity.uniquenessConstraints.map { "u\(layout.recordedNames(of: $0, in: entity))" }
                + entity.indices.map { "i\(layout.recordedNames(of: $0, in: entity))" } + modifiers
            return Entity(
                name: entity.name,
                columns: columns,
                uniquenessConstraints: entity.uniquenessConstraints,
                indices: entity.indices,
                joinTables: SQLTableLayout.joinTables(of: entity),
                attributes: Self.attributes(of: entity, among: entities),
                relationships: Self.relationships(of: entity, among: entities),
                subentities: Self.subentities(of: entity, among: entities),
                hash: StoredSchema.hash(shape.joined(separator: ";"))
            )
        }
    }

    /// The entities among `entities` that inherit directly from `entity`, by name.
    private static func directSubentities(of entity: Schema.Entity, among entities: [Schema.Entity]) -> [Schema.Entity]
    {
        entities.filter { $0.superentity === entity }.sorted { $0.name < $1.name }
    }

    private static func subentities(of root: Schema.Entity, among entities: [Schema.Entity]) -> [String: String]? {
        var result: [String: String] = [:]
        var pending = [root]
        while let entity = pending.popLast() {
            for subentity in directSubentities(of: entity, among: entities) {
                result[subentity.name] = entity.name
                pending.append(subentity)
            }
        }
        return result.isEmpty ? nil : result
    }

    /// The properties of every class stored in a hierarchy's table (the root's, then its subclasses' own).
    private static func hierarchyProperties(of root: Schema.Entity, among entities: [Schema.Entity])
        -> [Schema.Entity.Property]
    {
        var seen: Set<String> = []
        var result: [Schema.Entity.Property] = []
        var pending = [root]
        while !pending.isEmpty {
            let entity = pending.removeFirst()
            for property in entity.persistedProperties where seen.insert(property.name).inserted {
                result.append(property)
            }
            pending += directSubentities(of: entity, among: entities)
        }
        return result
    }

    private static func attributes(of entity: Schema.Entity, among entities: [Schema.Entity]) -> [Attribute] {
        hierarchyProperties(of: entity, among: entities).compactMap { property in
            guard let attribute = property.schemaProperty as? Schema.Attribute else { return nil }
            return Attribute(
                name: property.name,
                type: String(describing: attribute.valueType),
                isOptional: attribute.isOptional,
                options: attribute.options.map(\.description).sorted()
            )
        }
    }

    private static func relationships(of entity: Schema.Entity, among entities: [Schema.Entity]) -> [Relationship] {
        hierarchyProperties(of: entity, among: entities).compactMap { property in
            guard let info = property.relationshipInfo else { return nil }
            var relationship = Relationship(
                name: property.name,
                destination: info.destination.name,
                isToMany: info.isToMany,
                isOptional: property.isOptional,
                inverse: info.inverseSides.isEmpty ? nil : info.inverseSides.map(\.name).joined(separator: ","),
                deleteRule: info.declaration.deleteRule.rawValue
            )
            switch info.storage {
            case .foreignKey(let column): relationship.foreignKey = column
            case .inverseForeignKey(let column): relationship.inverseForeignKey = column
            case .joinTable(let table, let ownerColumn, let targetColumn):
                relationship.joinTable = table
                relationship.ownerColumn = ownerColumn
                relationship.targetColumn = targetColumn
            }
            return relationship
        }
    }

    /// The entity with a name.
    package func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// True when the two schemas store the same tables the same way (versions aside), join tables included.
    package func hasSameShape(as other: StoredSchema) -> Bool {
        entities.sorted { $0.name < $1.name }.map(\.hash) == other.entities.sorted { $0.name < $1.name }.map(\.hash)
            && entities.map(\.name).sorted() == other.entities.map(\.name).sorted()
            && Set(entities.flatMap(\.joinTables)) == Set(other.entities.flatMap(\.joinTables))
    }

    /// The schema as JSON, for the store's metadata.
    package func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    package static func decoded(_ text: String) throws -> StoredSchema {
        try JSONDecoder().decode(StoredSchema.self, from: Data(text.utf8))
    }

    /// FNV-1a, as hex: stable across runs and platforms, unlike `Hasher`.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return String(value, radix: 16)
    }
}
