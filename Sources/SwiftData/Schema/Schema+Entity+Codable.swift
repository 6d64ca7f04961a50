// An entity encodes its name, its superentity's name, the properties it declares (not the inherited ones, which
// its superentity encodes), its uniqueness constraints and its indices. Its subentities are not encoded: they name
// it as their superentity, and a decoded schema links them (see `Schema.init(from:)`).

extension Schema.Entity: Codable {
    private enum CodingKeys: String, CodingKey {
        case name
        case superentityName
        case properties
        case uniquenessConstraints
        case indices
    }

    /// Decodes an entity without a model class.
    ///
    /// An entity decoded on its own knows its superentity's name but not the superentity, so its properties are
    /// only those it declares; one decoded as part of a schema is linked to its superentity and subentities.
    ///
    /// - Throws: `DecodingError` when the data is not an encoded entity.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            schemaEntityNamed: try container.decode(String.self, forKey: .name),
            declaredProperties: try container.decode([CodedProperty].self, forKey: .properties).map(\.property),
            superentityName: try container.decodeIfPresent(String.self, forKey: .superentityName),
            uniquenessConstraints: try container.decodeIfPresent([[String]].self, forKey: .uniquenessConstraints)
                ?? [],
            indices: try container.decodeIfPresent([[String]].self, forKey: .indices) ?? []
        )
    }

    /// Encodes the entity's name, its superentity's name, the properties it declares, its uniqueness constraints
    /// and its indices.
    ///
    /// - Throws: `EncodingError` when the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(superentityName, forKey: .superentityName)
        let inherited = inheritedProperties.count
        try container.encode(properties.dropFirst(inherited).map(CodedProperty.init), forKey: .properties)
        if !uniquenessConstraints.isEmpty {
            try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
        }
        if !indices.isEmpty { try container.encode(indices, forKey: .indices) }
    }
}
