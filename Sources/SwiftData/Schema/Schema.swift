/// A description of the models an app persists: their entities, attributes and relationships.
///
/// Creating a schema from model types also includes every model type reachable through their relationships, so
/// `Schema([Trip.self])` knows the types `Trip` refers to.
public final class Schema: Hashable, CustomDebugStringConvertible, Sendable {
    /// The schema's entities, in the order the types were given, followed by related types.
    public let entities: [Entity]
    /// The schema's entities by name.
    public let entitiesByName: [String: Entity]
    /// The schema's version.
    public let version: Version

    /// Creates a schema from model types, including every type reachable through their relationships.
    public init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        var ordered: [Entity] = []
        var seen: Set<String> = []
        var pending = types.map { EntityRegistry.shared.entity(forType: $0) }
        var cursor = 0
        while cursor < pending.count {
            let entity = pending[cursor]
            cursor += 1
            guard seen.insert(entity.name).inserted else { continue }
            ordered.append(entity)
            pending += entity.persistedProperties.compactMap { $0.relationshipInfo?.destination }
        }
        self.entities = ordered
        self.entitiesByName = Dictionary(ordered.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.version = version
    }

    /// Creates a schema from model types.
    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// Creates a schema from entities, such as those of another schema.
    ///
    /// Entities describe model types here (there is no entity without its class on Linux), so the schema is the
    /// one of their model types: every type reachable through their relationships is included too.
    public convenience init(_ entities: Entity..., version: Version = Version(1, 0, 0)) {
        self.init(entities.map(\.modelType), version: version)
    }

    /// Creates an empty schema.
    public convenience init() {
        self.init([], version: Version(1, 0, 0))
    }

    /// Creates the schema of a versioned schema's models.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    /// The entity of a model type, or nil when the schema does not include it.
    public func entity<Model: PersistentModel>(for type: Model.Type) -> Entity? {
        entitiesByName[Schema.entityName(for: type)]
    }

    /// A readable list of the schema's entities and properties.
    public var debugDescription: String {
        "Schema(version: \(version), entities: \(entities.map(\.description)))"
    }

    /// Schemas are equal when they have the same version and the same entities.
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.version == rhs.version && lhs.entities.map(\.name) == rhs.entities.map(\.name)
    }

    /// Hashes the version and entity names.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities.map(\.name))
    }
}
