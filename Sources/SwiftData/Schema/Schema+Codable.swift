internal import Foundation

// A schema encodes what describes its models, so that it can be written to a file, read back and compared with the
// schema of the running code: its version, and each entity's name, superentity name, own properties (attributes
// with their type's name, optionality and options; relationships with their destination, inverse, delete rule,
// counts and whether they refer to many models), uniqueness constraints and indices. Values that only code has are
// not encoded: attributes' default values, relationships' key paths and the model classes themselves. A decoded
// schema therefore compares with and describes the schema it was encoded from, but cannot back a `ModelContainer`.

extension Schema: Codable {
    private enum CodingKeys: String, CodingKey {
        case encodingVersion
        case version
        case entities
    }

    /// The version of the encoding this library writes, which ``load(from:)`` and ``init(from:)`` read up to.
    public static let schemaEncodingVersion = Version(1, 0, 0)

    /// Decodes a schema: its version and its entities, each entity linked to its superentity and subentities by
    /// name. The decoded entities have no model class, so a container cannot store the schema's models.
    ///
    /// - Throws: `DecodingError` when the data is not an encoded schema, was encoded with a later major encoding
    ///   version than ``schemaEncodingVersion``, names a superentity that is not among its entities, or describes
    ///   inheritance that loops (an entity that names itself as its superentity, or entities that inherit from
    ///   each other).
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let encodingVersion = try container.decode(Version.self, forKey: .encodingVersion)
        guard encodingVersion.major <= Self.schemaEncodingVersion.major else {
            throw DecodingError.dataCorruptedError(
                forKey: .encodingVersion, in: container,
                debugDescription: "the schema was encoded with version \(encodingVersion), which is later than "
                    + "\(Self.schemaEncodingVersion)")
        }
        let version = try container.decode(Version.self, forKey: .version)
        let entities = try container.decode([Entity].self, forKey: .entities)
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            guard let parent = entity.declaredSuperentityName else { continue }
            guard parent != entity.name else {
                throw DecodingError.dataCorruptedError(
                    forKey: .entities, in: container,
                    debugDescription: "the entity \(entity.name) names itself as its superentity")
            }
            guard byName[parent] != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .entities, in: container,
                    debugDescription: "the superentity \(parent) of \(entity.name) is not an entity of the schema")
            }
        }
        // Linked entities that inherit from each other would make every read of their properties recurse without
        // end: each chain of superentities must end.
        if let loop = Self.inheritanceLoop(among: entities, byName: byName) {
            throw DecodingError.dataCorruptedError(
                forKey: .entities, in: container,
                debugDescription: "the inheritance of the entities loops: \(loop.joined(separator: " → "))")
        }
        for entity in entities {
            guard let parent = entity.declaredSuperentityName, let superentity = byName[parent] else { continue }
            guard superentity.adopt(entity) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .entities, in: container,
                    debugDescription: "the inheritance of \(entity.name) from \(parent) loops")
            }
        }
        self.init(schemaEntities: entities, version: version, encodingVersion: encodingVersion)
    }

    /// Encodes the schema: the encoding version, the schema's version and its entities.
    ///
    /// - Throws: `EncodingError` when the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schemaEncodingVersion, forKey: .encodingVersion)
        try container.encode(version, forKey: .version)
        try container.encode(entities, forKey: .entities)
    }

    // MARK: - Saving and Loading

    /// Writes the schema's encoding to a file, replacing the file if it exists.
    ///
    /// The file holds JSON with sorted keys, so a schema that did not change writes the same bytes. It is this
    /// library's encoding: Apple's SwiftData is not known to read it, nor this library to read Apple's.
    ///
    /// ```swift
    /// try container.schema.save(to: url)
    /// let saved = try Schema.load(from: url)
    /// if saved != container.schema { print("the models changed") }
    /// ```
    ///
    /// - Throws: `EncodingError` when the schema cannot be encoded, or the error of writing the file.
    public final func save(to toURL: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: toURL, options: .atomic)
    }

    /// Reads a schema that ``save(to:)`` wrote.
    ///
    /// The schema describes the models it was saved from: its entities, their properties with their types' names,
    /// options, relationships, constraints, indices and inheritance, and its version. It compares equal to the
    /// schema it was saved from. It has no model classes, so a ``ModelContainer`` refuses it.
    ///
    /// - Throws: The error of reading the file, or `DecodingError` when the file does not hold an encoded schema.
    public static func load(from fromURL: URL) throws -> Schema {
        try JSONDecoder().decode(Schema.self, from: Data(contentsOf: fromURL))
    }

    // MARK: - Internal

    /// The names along a chain of decoded superentities that comes back to an entity it passed, ending with that
    /// entity's name again, or nil when every chain ends. Superentities are found by name in `byName`.
    private static func inheritanceLoop(among entities: [Entity], byName: [String: Entity]) -> [String]? {
        // Entities whose chain is known to end: a walk that reaches one stops there, so each entity is walked once.
        var ending: Set<ObjectIdentifier> = []
        for entity in entities {
            var chain: [Entity] = []
            var onChain: Set<ObjectIdentifier> = []
            var current: Entity? = entity
            while let next = current, !ending.contains(ObjectIdentifier(next)) {
                guard onChain.insert(ObjectIdentifier(next)).inserted else {
                    return (chain + [next]).map(\.name)
                }
                chain.append(next)
                current = next.declaredSuperentityName.flatMap { byName[$0] }
            }
            ending.formUnion(onChain)
        }
        return nil
    }

    /// The standard type an encoded type name names (`Swift.String`, `Swift.Optional<Foundation.Date>`,
    /// `Swift.Array<Swift.Int>`…), or nil for a type only the app's code knows.
    static func standardType(named name: String) -> (any Any.Type)? { standardTypes[name] }

    private static let standardTypes: [String: any Any.Type] = {
        func variants<T>(_: T.Type) -> [any Any.Type] { [T.self, T?.self, [T].self, [T]?.self] }
        let types: [[any Any.Type]] = [
            variants(Bool.self), variants(String.self), variants(Character.self),
            variants(Int.self), variants(Int8.self), variants(Int16.self), variants(Int32.self), variants(Int64.self),
            variants(UInt.self), variants(UInt8.self), variants(UInt16.self), variants(UInt32.self),
            variants(UInt64.self), variants(Double.self), variants(Float.self), variants(Decimal.self),
            variants(Date.self), variants(Data.self), variants(URL.self), variants(UUID.self),
        ]
        return Dictionary(
            types.joined().map { (String(reflecting: $0), $0) }, uniquingKeysWith: { first, _ in first })
    }()
}

/// The keys of an encoded attribute or relationship.
enum PropertyCodingKeys: String, CodingKey {
    case kind, name, valueType, isOptional, options, originalName, hashModifier, properties
    case destination, inverseName, deleteRule, minimumModelCount, maximumModelCount, isUnidirectional, isToMany
}

/// What an encoded property is, so that decoding makes an object of its class.
enum PropertyKind: String, Codable {
    case attribute, compositeAttribute, relationship
}

/// An attribute, composite attribute or relationship, encoded with its kind.
struct CodedProperty: Codable {
    let property: any SchemaProperty

    init(_ property: any SchemaProperty) { self.property = property }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PropertyCodingKeys.self)
        switch try container.decode(PropertyKind.self, forKey: .kind) {
        case .attribute: property = try Schema.Attribute(from: decoder)
        case .compositeAttribute: property = try Schema.CompositeAttribute(from: decoder)
        case .relationship: property = try Schema.Relationship(from: decoder)
        }
    }

    func encode(to encoder: any Encoder) throws { try property.encode(to: encoder) }
}
