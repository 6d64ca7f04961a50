extension Schema {
    /// An entity: the schema's description of one model class, or of a class a schema names without one.
    ///
    /// A schema made from model types has an entity for each of them; their attributes, relationships and
    /// constraints are those `@Model` declared. Entities can also be made without a model class, from their name and
    /// properties:
    ///
    /// ```swift
    /// let vehicle = Schema.Entity(
    ///     "Vehicle",
    ///     subentities: Schema.Entity("Truck", properties: Schema.Attribute(name: "payload", valueType: Int.self)),
    ///     properties: Schema.Attribute(name: "wheels", valueType: Int.self))
    /// let schema = Schema(vehicle)
    /// ```
    ///
    /// Such a schema describes models; a ``ModelContainer`` cannot store them, as no class makes their instances.
    /// The entities of a decoded schema have no model class either (see ``Schema/load(from:)``).
    public final class Entity: Hashable, CustomStringConvertible, CustomDebugStringConvertible, @unchecked Sendable {
        // @unchecked: built once and only read afterwards, except the relationship information that
        // `EntityRegistry` completes before it publishes the entity and the inheritance links, which `links` guards.

        /// The entity's name: the model class's name.
        public let name: String
        /// The entity's properties, in declaration order: the inherited ones first, then its own.
        public var properties: [any SchemaProperty] {
            if let declaredProperties { return inheritedProperties + declaredProperties }
            return persistedProperties.map(\.schemaProperty)
        }
        /// The entity's attributes, inherited ones included.
        public var attributes: Set<Attribute> { Set(properties.compactMap { $0 as? Attribute }) }
        /// The entity's relationships, inherited ones included.
        public var relationships: Set<Relationship> { Set(properties.compactMap { $0 as? Relationship }) }
        /// The entity's attributes by name.
        public var attributesByName: [String: Attribute] {
            Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The entity's relationships by name.
        public var relationshipsByName: [String: Relationship] {
            Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The properties a store keeps: every property except transient ones (attributes declared
        /// `.ephemeral`), in the order of ``properties``.
        public var storedProperties: [any SchemaProperty] { properties.filter { !$0.isTransient } }
        /// The stored properties by name.
        public var storedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(storedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// Groups of property names whose values must be unique together: each `.unique` property alone, then the
        /// groups `#Unique` declares.
        public let uniquenessConstraints: [[String]]
        /// Groups of property names that are indexed together, as `#Index` declares them.
        public let indices: [[String]]
        /// The entity this entity inherits from, if any: for a model class, the entity of its superclass in the
        /// same schema.
        ///
        /// An entity does not keep its superentity alive: the schema that holds both does, or the superentity's
        /// owner.
        public var superentity: Entity? {
            guard isSchemaEntity else { return superentityType.map { EntityRegistry.shared.entity(forType: $0) } }
            return links.withLock { $0.superentity }
        }
        /// The name of the entity this entity inherits from, if any.
        public var superentityName: String? { superentity?.name ?? declaredSuperentityName }
        /// The properties this entity inherits from its superentity and the entities above it, in declaration
        /// order; empty for an entity without a superentity. They also lead `properties`.
        public var inheritedProperties: [any SchemaProperty] {
            if let model = describedModelEntity {
                return Array(model.properties.prefix(model.superentity?.persistedProperties.count ?? 0))
            }
            return superentity?.properties ?? []
        }
        /// The inherited properties by name.
        public var inheritedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(inheritedProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The entities that inherit directly from this one: the entities of the schema whose superentity is this
        /// one (for a schema made from model types, the subclasses it lists), or the subentities it was created
        /// with.
        public var subentities: Set<Entity> {
            guard isSchemaEntity else { return knownSubentities }
            return Set(links.withLock { $0.subentities })
        }

        // MARK: - Creating an Entity

        /// Creates an entity without a model class and without properties.
        public convenience init(_ name: String) {
            self.init(schemaEntityNamed: name, declaredProperties: [])
        }

        /// Creates an entity without a model class, with its own properties.
        public convenience init(_ name: String, properties: any SchemaProperty...) {
            self.init(schemaEntityNamed: name, declaredProperties: properties)
        }

        /// Creates an entity without a model class, with the entities that inherit from it and its own properties.
        ///
        /// Each subentity takes this entity as its superentity, and its properties then begin with this entity's. A
        /// subentity that already has a superentity, or belongs to a schema, is left as it is: this entity takes a
        /// copy of it instead, which has its name, own properties, uniqueness constraints and indices, copies of the
        /// entities below it, and no model class. Other entities and schemas never change.
        ///
        /// ```swift
        /// let truck = Schema.Entity("Truck")
        /// let vehicle = Schema.Entity("Vehicle", subentities: truck)  // truck.superentity === vehicle
        /// let machine = Schema.Entity("Machine", subentities: truck)  // a copy: truck keeps vehicle
        /// ```
        public convenience init(_ name: String, subentities: Schema.Entity..., properties: any SchemaProperty...) {
            self.init(schemaEntityNamed: name, declaredProperties: properties)
            for subentity in subentities {
                let isLinked = subentity.links.withLock { $0.superentity != nil || $0.isHeldBySchema }
                adopt(isLinked ? subentity.unlinkedCopy() : subentity)
            }
        }

        /// The entity's name and properties.
        public var description: String { "Entity(\(name), properties: \(properties.map(\.name)))" }

        /// The entity's name, superentity and properties, for debugging.
        public var debugDescription: String {
            let parent = superentityName.map { ", superentity: \($0)" } ?? ""
            return "Entity(\(name)\(parent), properties: \(properties.map { "\($0)" }))"
        }

        /// Entities are equal when they have the same name, superentity name, uniqueness constraints and indices
        /// (each in the same order), and equal properties in the same order.
        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            if lhs === rhs { return true }
            guard lhs.name == rhs.name, lhs.superentityName == rhs.superentityName,
                lhs.uniquenessConstraints == rhs.uniquenessConstraints, lhs.indices == rhs.indices
            else { return false }
            let left = lhs.properties
            let right = rhs.properties
            guard left.count == right.count else { return false }
            for index in left.indices where Self.hashable(left[index]) != Self.hashable(right[index]) {
                return false
            }
            return true
        }

        /// A property as a hashable value, so two properties of any kind compare with their own `==`.
        private static func hashable(_ property: some SchemaProperty) -> AnyHashable { AnyHashable(property) }

        /// Hashes the entity's name.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        // MARK: - Internal

        /// The model type this entity describes; nil for a schema's entity (see `isSchemaEntity`).
        package let modelType: (any PersistentModel.Type)?
        /// True for an entity a schema holds, which describes a model class or a class without one, and false for
        /// the entity SwiftData builds once per model class to make, read and store its models (`EntityRegistry`).
        /// Only the first kind is public: a schema's entities answer their superentity and subentities from their
        /// schema, which the per-class entity, shared by every schema that names its class, cannot.
        let isSchemaEntity: Bool
        /// For a schema's entity made from a model class: that class's entity.
        let describedModelEntity: Entity?
        /// For a schema's entity: the properties it declares, without the inherited ones.
        private let declaredProperties: [any SchemaProperty]?
        /// For a schema's entity: the superentity's name when the superentity itself is not known (an entity
        /// decoded on its own).
        let declaredSuperentityName: String?
        /// A schema's entity's links to the entities of its schema that it inherits from and that inherit from it.
        private let links = Locked(Links())

        private struct Links {
            weak var superentity: Entity?
            var subentities: [Entity] = []
            /// True once a schema holds the entity.
            var isHeldBySchema = false
        }

        /// The entity of the model class this entity describes: itself for the entity SwiftData builds for a model
        /// class, the one it was made from for a schema's entity, and nil for an entity without a model class.
        var modelEntity: Entity? { isSchemaEntity ? describedModelEntity : self }
        /// Persisted properties with what the runtime needs to read, write and store them.
        package let persistedProperties: [Property]
        private let indexByKeyPath: [AnyKeyPath: Int]
        /// The key path objects in slot order. Key path literals are uniqued objects, so an identity scan over a
        /// handful of slots finds the accessor's key path faster than hashing it.
        private let keyPathObjects: [AnyKeyPath]
        /// Slots by the identity of the key path objects accessors have used. Only identities, so that a lookup
        /// compares integers and retains nothing; the objects are kept in `knownKeyPaths`, so an identity is never
        /// reused by another key path.
        private let slotsByKeyPathObject = PublishedSnapshot<ObjectIdentifier, Int>()
        private let knownKeyPaths = Locked<[AnyKeyPath]>([])
        let indexByName: [String: Int]
        /// The persisted properties' key paths in slot order, all rooted at the entity's class, inherited properties
        /// included (see `PersistentModel._$swiftDataPropertyKeyPaths`): what history hands out. A property's own
        /// key path stands in where the class gives none for it.
        let classKeyPaths: [AnyKeyPath]
        /// True when a property is a relationship.
        let hasRelationships: Bool
        /// True when a property keeps large values in files beside the store.
        let usesExternalStorage: Bool
        /// True when a to-many relationship declares a minimum or maximum model count, which a save checks.
        let declaresRelationshipCounts: Bool
        private let modelFactory: (Entity, PersistentIdentifier, ModelSlots) -> (any PersistentModel, ModelStorage)
        /// What the temporary identifiers of the entity's new models share (see `PersistentIdentifier.temporary(of:)`).
        let temporaryIdentifierScope: IdentifierScope

        init<Model: PersistentModel>(modelType: Model.Type) {
            self.modelType = modelType
            self.isSchemaEntity = false
            self.describedModelEntity = nil
            self.declaredProperties = nil
            self.declaredSuperentityName = nil
            self.name = Schema.entityName(for: modelType)
            self.temporaryIdentifierScope = IdentifierScope(storeIdentifier: nil, entityName: name)
            let metadata = modelType.schemaMetadata
            var properties: [Property] = []
            for (index, entry) in metadata.enumerated() {
                properties.append(Property(index: index, metadata: entry))
            }
            self.persistedProperties = properties
            // A `let` is read back once, while a fetched model is made and before it is in a context: a related model
            // cannot be found then, and a change through the other side could not reach it afterwards.
            self.relationshipIssues = properties.filter { $0.isRelationship && $0.isConstant }.map {
                "\(Schema.entityName(for: modelType)).\($0.name) is a relationship declared with 'let'; declare it "
                    + "with 'var'"
            }
            self.indexByKeyPath = Dictionary(uniqueKeysWithValues: properties.map { ($0.keyPath, $0.index) })
            self.keyPathObjects = properties.map(\.keyPath)
            self.indexByName = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.index) })
            self.classKeyPaths = Self.classKeyPaths(of: modelType, properties: properties)
            self.hasRelationships = properties.contains(where: \.isRelationship)
            self.usesExternalStorage = properties.contains(where: \.usesExternalStorage)
            self.declaresRelationshipCounts = properties.contains {
                guard let info = $0.relationshipInfo, info.isToMany else { return false }
                return (info.declaration.minimumModelCount ?? 0) > 0 || (info.declaration.maximumModelCount ?? 0) > 0
            }
            let names = { (group: [AnyKeyPath]) in
                group.compactMap { keyPath in properties.first { $0.keyPath == keyPath }?.name }
            }
            self.uniquenessConstraints =
                properties.filter { $0.schemaProperty.isUnique }.map { [$0.name] }
                + modelType._$swiftDataUniquenessConstraints.map(names).filter { !$0.isEmpty }
            self.indices = modelType._$swiftDataIndices.map(names).filter { !$0.isEmpty }
            self.modelFactory = Self.factory(root: rootModelType(of: modelType))
            self.superentityType = superModelType(of: modelType)
        }

        /// Creates a schema's entity: one without a model class when `model` is nil, else a description of the
        /// entity of `model`'s class, whose properties it takes.
        init(
            schemaEntityNamed name: String,
            declaredProperties: [any SchemaProperty],
            superentityName: String? = nil,
            uniquenessConstraints: [[String]]? = nil,
            indices: [[String]] = [],
            describing model: Entity? = nil
        ) {
            self.name = name
            self.temporaryIdentifierScope = IdentifierScope(storeIdentifier: nil, entityName: name)
            self.isSchemaEntity = true
            self.describedModelEntity = model
            self.declaredProperties = declaredProperties
            self.declaredSuperentityName = superentityName
            self.uniquenessConstraints =
                uniquenessConstraints ?? declaredProperties.filter(\.isUnique).map { [$0.name] }
            self.indices = indices
            self.modelType = nil
            self.persistedProperties = []
            self.relationshipIssues = []
            self.indexByKeyPath = [:]
            self.keyPathObjects = []
            self.indexByName = [:]
            self.classKeyPaths = []
            self.hasRelationships = false
            self.usesExternalStorage = false
            self.declaresRelationshipCounts = false
            self.modelFactory = { entity, _, _ in
                preconditionFailure("\(entity.name) is an entity of a schema, which makes no models")
            }
            self.superentityType = nil
        }

        /// A schema's entity that describes the entity of a model class. Its superentity and subentities are linked
        /// by the schema that makes it.
        convenience init(describing model: Entity) {
            let inherited = model.superentity?.persistedProperties.count ?? 0
            self.init(
                schemaEntityNamed: model.name,
                declaredProperties: Array(model.properties.dropFirst(inherited)),
                superentityName: model.superentity?.name,
                uniquenessConstraints: model.uniquenessConstraints,
                indices: model.indices,
                describing: model
            )
        }

        /// Makes `subentity` inherit from this entity, in place of the entity it inherited from before, if any, and
        /// returns true. Returns false and links nothing when the link would close a loop: when `subentity` is this
        /// entity or an entity it inherits from. Reading the properties of entities in a loop would never end.
        @discardableResult
        func adopt(_ subentity: Entity) -> Bool {
            precondition(isSchemaEntity && subentity.isSchemaEntity, "only a schema's entities are linked")
            // The links never loop, so this walk ends.
            var ancestor: Entity? = self
            while let current = ancestor {
                guard current !== subentity else { return false }
                ancestor = current.links.withLock { $0.superentity }
            }
            if let former = subentity.links.withLock({ $0.superentity }), former !== self {
                former.links.withLock { $0.subentities.removeAll { $0 === subentity } }
            }
            subentity.links.withLock { $0.superentity = self }
            links.withLock { links in
                if !links.subentities.contains(where: { $0 === subentity }) { links.subentities.append(subentity) }
            }
            return true
        }

        /// Notes that a schema holds this entity, whose links must then stay as the schema made them.
        func noteHeldBySchema() {
            links.withLock { $0.isHeldBySchema = true }
        }

        /// A copy of this schema's entity and of the entities below it, linked to each other but to no superentity
        /// and no schema: its name, own properties, uniqueness constraints and indices, without a model class.
        private func unlinkedCopy() -> Entity {
            let copy = Entity(
                schemaEntityNamed: name,
                declaredProperties: declaredProperties ?? [],
                uniquenessConstraints: uniquenessConstraints,
                indices: indices
            )
            for subentity in links.withLock({ $0.subentities }) { copy.adopt(subentity.unlinkedCopy()) }
            return copy
        }

        /// The key paths a model class gives for its persisted properties, rooted at it; for each property whose key
        /// path it does not give (a class written without `@Model` that lists other properties), the property's own.
        private static func classKeyPaths<Model: PersistentModel>(of modelType: Model.Type, properties: [Property])
            -> [AnyKeyPath]
        {
            let rooted = modelType._$swiftDataPropertyKeyPaths
            return properties.map { property in
                guard rooted.count == properties.count else { return property.keyPath }
                let keyPath = rooted[property.index]
                let matches =
                    type(of: keyPath).rootType == Model.self
                    && type(of: keyPath).valueType == type(of: property.keyPath).valueType
                return matches ? keyPath : property.keyPath
            }
        }

        /// Makes models of an entity: the backing data is typed by the root model class, and the root's
        /// `init(backingData:)` dispatches to the entity's class (a subclass overrides it).
        private static func factory<Root: PersistentModel>(root: Root.Type)
            -> (Entity, PersistentIdentifier, ModelSlots) -> (any PersistentModel, ModelStorage)
        {
            // Resolved here, once: inside the closure, which is not specialized, naming the generic class looked up
            // its metadata on every call.
            let backingDataType = DefaultBackingData<Root>.self
            return { entity, identifier, slots in
                // The backing data holds the row's values while the initializer runs, and ignores the declared
                // default values the initializer stores through it.
                let storage = backingDataType.init(entity: entity, identifier: identifier)
                storage.takeRow(slots)
                // The class of most rows is the root itself, told without a dynamic cast.
                let concrete = entity.modelType == Root.self ? Root.self : entity.modelType as? Root.Type ?? Root.self
                let model = BackingDataHandoff.offering(storage) { concrete.init(backingData: storage) }
                storage.becomeFetched()
                storage.bind(model)
                return (model, storage)
            }
        }

        /// The model class this entity's class inherits from, if it is a model.
        package let superentityType: (any PersistentModel.Type)?

        /// How many model classes this entity's class inherits from.
        var depth: Int { superentity.map { $0.depth + 1 } ?? 0 }

        /// The entity at the top of this entity's inheritance chain.
        package var rootEntity: Entity {
            var current = self
            while let parent = current.superentity { current = parent }
            return current
        }

        /// For the entity of a model class: the entities of the model classes that inherit directly from it, among
        /// those whose entities this process has built. What the runtime needs to fetch a hierarchy; a schema's
        /// entities answer `subentities` from their schema instead.
        var knownSubentities: Set<Entity> {
            guard let modelType else { return [] }
            return Set(
                EntityRegistry.shared.knownEntities.filter {
                    $0.superentityType.map(ObjectIdentifier.init) == ObjectIdentifier(modelType)
                })
        }

        /// This entity and every entity below it that the registry knows, as entity names.
        package var hierarchyNames: [String] {
            [name] + knownSubentities.flatMap(\.hierarchyNames)
        }

        /// Problems found while resolving relationships (ambiguous inverses); a container refuses such a schema.
        var relationshipIssues: [String] = []

        /// A model of this entity with the given identifier; its backing data takes ownership of `slots`.
        func makeModel(identifier: PersistentIdentifier, slots: ModelSlots) -> (any PersistentModel, ModelStorage) {
            modelFactory(self, identifier, slots)
        }

        /// The entity for a model type, built once per process.
        static func of<Model: PersistentModel>(_ modelType: Model.Type) -> Entity {
            EntityRegistry.shared.entity(for: modelType)
        }

        /// The entity for a model type known only at run time.
        static func of(_ modelType: any PersistentModel.Type) -> Entity {
            EntityRegistry.shared.entity(forType: modelType)
        }

        /// The slot index of a persisted property's key path.
        func index(of keyPath: AnyKeyPath) -> Int {
            // Each key path literal is one object per site: the objects accessors use are remembered, so lookups
            // compare pointers instead of hashing key paths. They come first: accessors look up far more often
            // than anything that uses the schema's own key paths.
            if let index = slotsByKeyPathObject.value(for: ObjectIdentifier(keyPath)) { return index }
            for index in keyPathObjects.indices where keyPathObjects[index] === keyPath { return index }
            guard let index = indexByKeyPath[keyPath] else {
                preconditionFailure("\(keyPath) is not a persisted property of \(name)")
            }
            // A generic model class makes a new key path object on every access, which would make the table grow
            // (and be copied) without end: past a few per property, misses are looked up by hashing only.
            let remembers = knownKeyPaths.withLock { known in
                guard known.count < 4 * persistedProperties.count + 16 else { return false }
                known.append(keyPath)
                return true
            }
            if remembers { slotsByKeyPathObject.update { $0[ObjectIdentifier(keyPath)] = index } }
            return index
        }

        /// How many times the table of key path objects has been republished, for tests.
        var keyPathTablePublications: Int { slotsByKeyPathObject.publicationCount }

        /// The slot index of a key path, or nil when it is not a persisted property.
        func indexIfPersisted(_ keyPath: AnyKeyPath) -> Int? { indexByKeyPath[keyPath] }

        /// The property with a given name.
        package func property(named name: String) -> Property? { indexByName[name].map { persistedProperties[$0] } }

        /// The table that stores this entity: one table per inheritance hierarchy, named after its root.
        package var tableName: String { superentityType == nil ? name : rootEntity.name }
    }
}

extension Schema {
    /// The entity name SwiftData uses for a model type: the class's own name.
    public static func entityName<Model: PersistentModel>(for modelType: Model.Type) -> String {
        String(describing: modelType)
    }
}
