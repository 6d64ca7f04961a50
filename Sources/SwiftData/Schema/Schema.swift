/// A description of the models an app persists: their entities, attributes and relationships.
///
/// Creating a schema from model types also includes every model type reachable through their relationships and
/// every model class they inherit from, so `Schema([Trip.self])` knows the types `Trip` refers to. Subclasses are
/// not found from their superclass: list them.
///
/// A schema can also be made from entities built without model classes, or decoded (see ``load(from:)``): such a
/// schema describes models for comparison and inspection, but a ``ModelContainer`` cannot store them.
public final class Schema: Hashable, CustomDebugStringConvertible, Sendable {
    /// The schema's entities, in the order the types were given, followed by related types.
    public let entities: [Entity]
    /// The schema's entities by name.
    public let entitiesByName: [String: Entity]
    /// The schema's version.
    public let version: Version
    /// The version of the encoding the schema was decoded from, or ``schemaEncodingVersion`` for a schema made in
    /// this process.
    public let encodingVersion: Version

    /// Creates a schema from model types, including every type reachable through their relationships and every
    /// model class they inherit from.
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
            if let superentity = entity.superentity { pending.append(superentity) }
        }
        let described = ordered.map { Entity(describing: $0) }
        let byName = Dictionary(described.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (entity, model) in zip(described, ordered) {
            if let superModel = model.superentity, let superentity = byName[superModel.name] {
                superentity.adopt(entity)
            }
        }
        for entity in described { entity.noteHeldBySchema() }
        self.entities = described
        self.entitiesByName = byName
        self.version = version
        self.encodingVersion = Self.schemaEncodingVersion
        self.modelEntities = ordered
        self.modelEntitiesByName = Dictionary(ordered.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Creates a schema from model types.
    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// Creates a schema from entities, such as those of another schema or entities made without model classes.
    ///
    /// When every entity describes a model class, the schema is the one of their model types: every type
    /// reachable through their relationships is included too, and the entities are the new schema's own. Otherwise
    /// the schema holds the given entities themselves, with their subentities and superentities.
    public convenience init(_ entities: Entity..., version: Version = Version(1, 0, 0)) {
        let modelEntities = entities.compactMap(\.modelEntity)
        if modelEntities.count == entities.count {
            self.init(modelEntities.compactMap(\.modelType), version: version)
        } else {
            self.init(schemaEntities: entities, version: version, encodingVersion: Self.schemaEncodingVersion)
        }
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

    /// Schemas are equal when they have the same version and equal entities (``Entity/==(_:_:)``), whatever their
    /// order.
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        guard lhs !== rhs else { return true }
        guard lhs.version == rhs.version, lhs.entities.count == rhs.entities.count else { return false }
        return lhs.entities.allSatisfy { entity in rhs.entitiesByName[entity.name] == entity }
    }

    /// Hashes the version and entity names.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(entities.map(\.name).sorted())
    }

    // MARK: - Internal

    /// The entities SwiftData builds for the schema's model classes (see `Entity.isSchemaEntity`), in the order of
    /// `entities`: what a container stores and the runtime works with. Empty for a schema whose entities have no
    /// model class.
    package let modelEntities: [Entity]
    /// The model classes' entities by name.
    let modelEntitiesByName: [String: Entity]

    /// True when every entity describes a model class, so a container can store the schema's models.
    var describesModelClasses: Bool { modelEntities.count == entities.count }

    /// A schema of entities as they are, with every subentity and superentity they reach.
    init(schemaEntities given: [Entity], version: Version, encodingVersion: Version) {
        var ordered: [Entity] = []
        var seen: Set<ObjectIdentifier> = []
        var pending = given
        var cursor = 0
        while cursor < pending.count {
            let entity = pending[cursor]
            cursor += 1
            guard seen.insert(ObjectIdentifier(entity)).inserted else { continue }
            ordered.append(entity)
            pending += entity.subentities.sorted { $0.name < $1.name }
            if let superentity = entity.superentity { pending.append(superentity) }
        }
        for entity in ordered { entity.noteHeldBySchema() }
        self.entities = ordered
        self.entitiesByName = Dictionary(ordered.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.version = version
        self.encodingVersion = encodingVersion
        let models = ordered.compactMap(\.modelEntity)
        self.modelEntities = models
        self.modelEntitiesByName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
