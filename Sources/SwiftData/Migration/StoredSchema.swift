/// The schema a store was written with, as recorded in its metadata: enough to compare it with the code's schema
/// and to migrate its tables.
struct StoredSchema: Codable, Equatable, Sendable {
    /// One entity's table.
    struct Entity: Codable, Equatable, Sendable {
        var name: String
        var columns: [Column]
        var uniquenessConstraints: [[String]]
        var indices: [[String]]
        /// Join tables this entity's relationships own.
        var joinTables: [String]
        /// The names of the entity's to-many relationships, which have no column to tell them by; nil in stores
        /// written before they were recorded.
        var toManyRelationships: [String]?
        /// A hash of the entity's shape and its properties' `hashModifier`s.
        var hash: String
    }

    /// One column and the property it stores.
    struct Column: Codable, Equatable, Sendable {
        var name: String
        var property: String
        var sqlType: String
        var isNullable: Bool
        var isForeignKey: Bool
    }

    var version: String
    var entities: [Entity]

    init(version: String, entities: [Entity]) {
        self.version = version
        self.entities = entities
    }

    /// The description of entities as the code defines them.
    init(entities: [Schema.Entity], layouts: [String: SQLiteTableLayout], version: Schema.Version) {
        self.version = version.description
        self.entities = entities.compactMap { entity in
            // One entry per table: a hierarchy is described by its root, whose layout holds every column.
            guard entity.tableName == entity.name, let layout = layouts[entity.name] else { return nil }
            let columns = layout.columns.map {
                Column(
                    name: $0.name,
                    property: $0.propertyIndex >= 0 ? entity.storedProperties[$0.propertyIndex].name : $0.name,
                    sqlType: $0.sqlType,
                    isNullable: $0.isNullable,
                    isForeignKey: $0.isForeignKey
                )
            }
            let modifiers = entity.storedProperties.compactMap { property -> String? in
                let modifier =
                    (property.schemaProperty as? Schema.Attribute)?.hashModifier
                    ?? (property.schemaProperty as? Schema.Relationship)?.hashModifier
                return modifier.map { "\(property.name)=\($0)" }
            }
            let shape =
                columns.map { "\($0.name) \($0.sqlType) \($0.isNullable)" }
                + entity.uniquenessConstraints.map { "u\($0)" }
                + entity.indices.map { "i\($0)" } + modifiers
            return Entity(
                name: entity.name,
                columns: columns,
                uniquenessConstraints: entity.uniquenessConstraints,
                indices: entity.indices,
                joinTables: SQLiteStore.joinTables(of: entity),
                toManyRelationships: entity.storedProperties.filter { $0.relationshipInfo?.isToMany == true }.map(
                    \.name),
                hash: StoredSchema.hash(shape.joined(separator: ";"))
            )
        }
    }

    /// The entity with a name.
    func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// True when the two schemas store the same tables the same way (versions aside), join tables included.
    func hasSameShape(as other: StoredSchema) -> Bool {
        entities.sorted { $0.name < $1.name }.map(\.hash) == other.entities.sorted { $0.name < $1.name }.map(\.hash)
            && entities.map(\.name).sorted() == other.entities.map(\.name).sorted()
            && Set(entities.flatMap(\.joinTables)) == Set(other.entities.flatMap(\.joinTables))
    }

    /// The schema as JSON, for the store's metadata.
    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    static func decoded(_ text: String) throws -> StoredSchema {
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
