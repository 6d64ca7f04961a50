extension Schema {
    /// An entity: the schema's description of one model type.
    public final class Entity: Hashable, CustomStringConvertible, @unchecked Sendable {
        // @unchecked: built once under the registry's lock and only read afterwards, except the relationship
        // information that `EntityRegistry` completes before it publishes the entity.

        /// The entity's name: the model class's name.
        public let name: String
        /// The entity's persisted properties, in declaration order.
        public var properties: [any SchemaProperty] { persistedProperties.map(\.schemaProperty) }
        /// The entity's attributes.
        public var attributes: Set<Attribute> {
            Set(persistedProperties.compactMap { $0.schemaProperty as? Attribute })
        }
        /// The entity's relationships.
        public var relationships: Set<Relationship> {
            Set(persistedProperties.compactMap { $0.schemaProperty as? Relationship })
        }
        /// The entity's attributes by name.
        public var attributesByName: [String: Attribute] {
            Dictionary(uniqueKeysWithValues: attributes.map { ($0.name, $0) })
        }
        /// The entity's relationships by name.
        public var relationshipsByName: [String: Relationship] {
            Dictionary(uniqueKeysWithValues: relationships.map { ($0.name, $0) })
        }
        /// The entity's persisted properties by name.
        public var storedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(uniqueKeysWithValues: persistedProperties.map { ($0.name, $0.schemaProperty) })
        }
        /// Groups of property names whose values must be unique together: each `.unique` property alone, then the
        /// groups `#Unique` declares.
        public let uniquenessConstraints: [[String]]
        /// Groups of property names that are indexed together, as `#Index` declares them.
        public let indices: [[String]]
        /// The entity this entity inherits from, if any.
        public var superentity: Entity? { superentityType.map { EntityRegistry.shared.entity(forType: $0) } }
        /// The name of the entity this entity inherits from, if any.
        public var superentityName: String? { superentity?.name }
        /// The properties this entity inherits from its superentity and the entities above it, in declaration
        /// order; empty for an entity without a superentity. They also lead `properties`.
        public var inheritedProperties: [any SchemaProperty] { superentity?.properties ?? [] }
        /// The inherited properties by name.
        public var inheritedPropertiesByName: [String: any SchemaProperty] {
            Dictionary(uniqueKeysWithValues: inheritedProperties.map { ($0.name, $0) })
        }
        /// The entities that inherit directly from this one, among the model types SwiftData has seen.
        public var subentities: Set<Entity> {
            Set(
                EntityRegistry.shared.knownEntities.filter {
                    $0.superentityType.map(ObjectIdentifier.init) == ObjectIdentifier(modelType)
                })
        }

        /// The entity's name and properties.
        public var description: String { "Entity(\(name), properties: \(persistedProperties.map(\.name)))" }

        /// Entities are equal when they describe the same model type.
        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs === rhs
                || lhs.name == rhs.name && lhs.persistedProperties.map(\.name) == rhs.persistedProperties.map(\.name)
        }

        /// Hashes the entity's name.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        // MARK: - Internal

        /// The model type this entity describes.
        let modelType: any PersistentModel.Type
        /// Persisted properties with what the runtime needs to read, write and store them.
        let persistedProperties: [Property]
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
        /// True when a property is a relationship.
        let hasRelationships: Bool
        /// True when a property keeps large values in files beside the store.
        let usesExternalStorage: Bool
        /// True when a to-many relationship declares a minimum or maximum model count, which a save checks.
        let declaresRelationshipCounts: Bool
        private let modelFactory: (Entity, PersistentIdentifier, ModelSlots) -> (any PersistentModel, ModelStorage)

        init<Model: PersistentModel>(modelType: Model.Type) {
            self.modelType = modelType
            self.name = Schema.entityName(for: modelType)
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
        let superentityType: (any PersistentModel.Type)?

        /// How many model classes this entity's class inherits from.
        var depth: Int { superentity.map { $0.depth + 1 } ?? 0 }

        /// The entity at the top of this entity's inheritance chain.
        var rootEntity: Entity {
            var current = self
            while let parent = current.superentity { current = parent }
            return current
        }

        /// This entity and every entity below it that the registry knows, as entity names.
        var hierarchyNames: [String] {
            [name] + subentities.flatMap(\.hierarchyNames)
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
        func property(named name: String) -> Property? { indexByName[name].map { persistedProperties[$0] } }

        /// The table that stores this entity: one table per inheritance hierarchy, named after its root.
        var tableName: String { superentityType == nil ? name : rootEntity.name }
    }
}

extension Schema {
    /// The entity name SwiftData uses for a model type: the class's own name.
    public static func entityName<Model: PersistentModel>(for modelType: Model.Type) -> String {
        String(describing: modelType)
    }
}
