/// An object that manages an app's schema and its stores.
///
/// Give it model types (related types are found through relationships) or a schema, and optionally
/// configurations that say where each model's store lives:
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self)
/// let context = ModelContext(container)
/// ```
public final class ModelContainer: Sendable {
    /// The schema of every model the container stores.
    public let schema: Schema
    /// The migration plan given when the container was created.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// The container's configurations.
    public var configurations: Set<ModelConfiguration> { Set(orderedConfigurations) }

    let orderedConfigurations: [ModelConfiguration]
    /// One store per distinct configuration location.
    let stores: [any ModelStore]
    /// The store of each entity, by entity name.
    let storeByEntity: [String: any ModelStore]
    /// The identifier of the store each `ModelConfiguration` opened, or shares with another one at its location, by
    /// the configuration's `id`.
    let storeIdentifierByConfiguration: [String: String]
    /// True when a relationship's destination is in another store than its owner, so the identifiers a store reads
    /// for the targets of its links must be given the destination's store (see `located(_:in:)`).
    let hasLinksAcrossStores: Bool
    private let mainContextStorage = Locked<MainContextBox?>(nil)
    /// Carries each save to the container's other contexts.
    let broadcaster = ChangeBroadcaster()
    /// True for the container of a custom migration stage, whose new required columns may still be empty.
    let isMigrationContainer: Bool
    /// The watches of the stores for saves made elsewhere, stopped when the container goes.
    private let remoteChangeWatches = Locked<[any StoreChangeWatch]>([])

    /// Creates a container for a schema with configurations.
    ///
    /// The container's schema also includes the models of the configurations' schemas. This is the call Xcode's
    /// app template makes:
    ///
    /// ```swift
    /// let schema = Schema([Item.self])
    /// let modelConfiguration = ModelConfiguration(schema: schema, isStoredInMemoryOnly: false)
    /// let container = try ModelContainer(for: schema, configurations: [modelConfiguration])
    /// ```
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when a store cannot be opened or created, when a
    ///   relationship's inverse is ambiguous, or when an entity of the schema has no model class (the schema was
    ///   made from entities without one), with a message that says why.
    public convenience init(
        for givenSchema: Schema,
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration]
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, storeConfigurations: configurations)
    }

    /// Creates a container for a schema with configurations of any store: SwiftData's own
    /// (``ModelConfiguration``) or custom ones (see ``DataStore``).
    ///
    /// - Throws: what `init(for:migrationPlan:configurations:)` throws; what a configuration's `validate()` or a
    ///   custom store's initializer throws.
    package init(
        for givenSchema: Schema,
        migrationPlan: (any SchemaMigrationPlan.Type)?,
        storeConfigurations configurations: [any DataStoreConfiguration]
    ) throws {
        let configurations = configurations.isEmpty ? [ModelConfiguration()] : configurations
        for configuration in configurations { try configuration.validate() }
        // The container stores every entity of its schema and of its configurations' schemas.
        for candidate in [givenSchema] + configurations.compactMap(\.schema) where !candidate.describesModelClasses {
            let names = candidate.entities.filter { $0.modelEntity == nil }.map(\.name)
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the schema's entities \(names.joined(separator: ", ")) have no model class: a schema of entities "
                    + "made without model classes describes models but cannot store them"
            )
        }
        var allEntities = givenSchema.modelEntities
        var entityNames = Set(allEntities.map(\.name))
        for configuration in configurations {
            for entity in configuration.schema?.modelEntities ?? [] where entityNames.insert(entity.name).inserted {
                allEntities.append(entity)
            }
        }
        let schema =
            allEntities.count == givenSchema.modelEntities.count
            ? givenSchema : Schema(allEntities.compactMap(\.modelType), version: givenSchema.version)

        let issues = allEntities.flatMap(\.relationshipIssues)
        if !issues.isEmpty {
            throw SwiftDataError(.loadIssueModelContainer, issues.joined(separator: "; "))
        }

        var assignment: [String: Int] = [:]
        for entity in allEntities {
            let index = configurations.firstIndex {
                $0.schema?.modelEntitiesByName[entity.name] != nil || $0.schema == nil
            }
            assignment[entity.name] = index ?? 0
        }

        // Configurations at the same location share one store; a configuration that ends up with no entity opens
        // no file, except the first, so that an empty schema still has a store.
        var stores: [any ModelStore] = []
        var storeByEntity: [String: any ModelStore] = [:]
        var storeByLocation: [AnyHashable: any ModelStore] = [:]
        let locations = configurations.map(storeLocation(of:))
        for (index, configuration) in configurations.enumerated() where storeByLocation[locations[index]] == nil {
            let members = allEntities.filter { locations[assignment[$0.name]!] == locations[index] }
            guard !members.isEmpty || index == 0 else { continue }
            let store = try openStore(
                for: configuration,
                entities: members,
                version: Self.currentVersion(of: members, schema: givenSchema, plan: migrationPlan),
                migrationPlan: migrationPlan
            )
            stores.append(store)
            storeByLocation[locations[index]] = store
            for entity in members { storeByEntity[entity.name] = store }
        }
        self.storeIdentifierByConfiguration = Dictionary(
            configurations.indices.compactMap { index in
                guard let configuration = configurations[index] as? ModelConfiguration,
                    let store = storeByLocation[locations[index]]
                else { return nil }
                return (configuration.id, store.identifier)
            }, uniquingKeysWith: { first, _ in first })
        self.isMigrationContainer = false
        self.schema = schema
        self.migrationPlan = migrationPlan
        self.orderedConfigurations = configurations.compactMap { $0 as? ModelConfiguration }
        self.stores = stores
        self.storeByEntity = storeByEntity
        self.hasLinksAcrossStores = Self.hasLinksAcrossStores(allEntities, storeByEntity: storeByEntity)
        // A link between two stores is kept by key in the owner's store: a custom store's keys are not SQLite's
        // integers, nor are SQLite's keys known to a custom store before the save ends.
        for entity in allEntities {
            for property in entity.persistedProperties {
                guard let destination = property.relationshipInfo?.destination,
                    let owner = storeByEntity[entity.name], let target = storeByEntity[destination.name],
                    owner !== target, !owner.writesInTransaction || !target.writesInTransaction
                else { continue }
                throw SwiftDataError(
                    .loadIssueModelContainer,
                    "\(entity.name).\(property.name) relates models of the store '\(owner.name)' to models of the store "
                        + "'\(target.name)'; relationships between a custom store and another store are not supported: "
                        + "give both entities the same configuration",
                    entityName: entity.name)
            }
        }
        watchRemoteChanges()
    }

    /// Creates a container for model types (and every type they relate to).
    public convenience init(
        for forTypes: any PersistentModel.Type...,
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Creates a container for a schema.
    public convenience init(
        for givenSchema: Schema,
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    // MARK: - Contexts

    /// The container's context for the main actor, created on first use.
    ///
    /// Its `autosaveEnabled` is true: after a turn of the main actor that inserted, changed or deleted models, it
    /// saves them in the next turn. A failed autosave leaves the changes pending and sets `lastAutosaveError`.
    @MainActor
    public var mainContext: ModelContext {
        if let existing = mainContextStorage.withLock({ $0?.context }) { return existing }
        let context = ModelContext(self)
        context.isMainContext = true
        context.autosaveEnabled = true
        mainContextStorage.withLock { $0 = MainContextBox(context: context) }
        return context
    }

    // MARK: - Deleting Data

    /// Deletes every model from every store of the container, permanently.
    ///
    /// Stores opened with `allowsSave: false`, and stores that fail to delete their rows, are left as they are;
    /// `erase()` throws for them instead. Every context of the container learns of the stores whose rows were
    /// deleted the next time it fetches or saves: the models it holds from those stores leave it as deleted, their
    /// unsaved changes and pending deletions dropped, and it posts ``ModelContext/didSave`` with their identifiers
    /// under ``ModelContext/NotificationKey/invalidatedAllIdentifiers``. A context that held none posts nothing,
    /// and no context is told anything when no store's rows were deleted.
    public func deleteAllData() {
        var deleted: Set<String> = []
        for store in stores {
            do {
                try store.deleteAllRows()
                deleted.insert(store.identifier)
            } catch {
                continue
            }
        }
        broadcaster.invalidateAll(storeIdentifiers: deleted)
    }

    /// Deletes every model from every store of the container.
    ///
    /// The container's contexts learn of it as they do for ``deleteAllData()``. When a store fails to delete its
    /// rows, the stores erased before it stay erased, and the contexts learn of those only.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when a store was opened with `allowsSave: false`; a
    ///   container with such a store erases none. The store's error when a store fails to delete its rows.
    public func erase() throws {
        if let readOnly = stores.first(where: { !$0.allowsSave }) {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the store \(readOnly.name) was opened with allowsSave: false and cannot be erased"
            )
        }
        var erased: Set<String> = []
        defer { broadcaster.invalidateAll(storeIdentifiers: erased) }
        for store in stores {
            try store.deleteAllRows()
            erased.insert(store.identifier)
        }
    }

    // MARK: - Remote Changes

    /// Posted when another process, or another container in this one, saved changes to one of the container's
    /// stores.
    ///
    /// The notification's `object` is the container; its `userInfo` holds the store's identifier under
    /// `"storeIdentifier"` and the newest transaction's ``DefaultHistoryToken`` under `"historyToken"`. Fetch the
    /// history after the last token you processed to learn what changed. It is posted on a thread of its own: move
    /// to your actor before touching a context.
    ///
    /// Every save that records history writes a small file beside the store once it has committed
    /// (`<store file>-commits`). On Linux the container learns of it from the kernel's file notifications
    /// (inotify), without polling; elsewhere, or when the system refuses a watch, it checks twice a second. Stores
    /// in memory, which no one else reaches, post nothing; neither do custom stores.
    public static let remoteChange = Notification.Name("SwiftData.ModelContainer.remoteChange")

    private func watchRemoteChanges() {
        // Posted from a queue of the container's own: an observer that takes its time delays this container's
        // notifications only, not the watches of every store in the process.
        let queue = DispatchQueue(label: "SwiftData.ModelContainer.remoteChange")
        let watches = stores.compactMap { store in
            let storeIdentifier = store.identifier
            return store.watchRemoteChanges { [weak self] token in
                queue.async { [weak self] in
                    guard let self else { return }
                    NotificationCenter.default.post(
                        name: Self.remoteChange, object: self,
                        userInfo: [
                            "storeIdentifier": storeIdentifier,
                            "historyToken": DefaultHistoryToken(storeIdentifier: storeIdentifier, value: token),
                        ])
                }
            }
        }
        remoteChangeWatches.withLock { $0 = watches }
    }

    deinit {
        for watch in remoteChangeWatches.withLock({ $0 }) { watch.stop() }
    }

    // MARK: - Internal

    /// A container over one migration store, for the contexts a custom migration stage runs.
    package init(migrating store: any ModelStore, configuration: any DataStoreConfiguration, schema: Schema) {
        self.isMigrationContainer = true
        self.schema = schema
        self.migrationPlan = nil
        self.orderedConfigurations = [configuration].compactMap { $0 as? ModelConfiguration }
        self.stores = [store]
        self.storeByEntity = Dictionary(uniqueKeysWithValues: schema.modelEntities.map { ($0.name, store) })
        self.storeIdentifierByConfiguration = Dictionary(
            orderedConfigurations.map { ($0.id, store.identifier) }, uniquingKeysWith: { first, _ in first })
        self.hasLinksAcrossStores = false
    }

    /// The schema version a store records: the version of the plan's schema whose models are the store's, the
    /// plan's last version when none matches, or the schema's own version without a plan.
    static func currentVersion(
        of entities: [Schema.Entity],
        schema: Schema,
        plan: (any SchemaMigrationPlan.Type)?
    ) -> Schema.Version {
        guard let plan else { return schema.version }
        func identifiers(_ entities: [Schema.Entity]) -> Set<ObjectIdentifier> {
            Set(entities.compactMap { $0.modelType.map(ObjectIdentifier.init) })
        }
        let types = identifiers(entities)
        let match = plan.schemas.last { versioned in
            identifiers(Schema(versionedSchema: versioned).modelEntities).isSuperset(of: types)
        }
        return (match ?? plan.schemas.last)?.versionIdentifier ?? schema.version
    }

    /// The store that holds an entity.
    func store(for entity: Schema.Entity) throws -> any ModelStore {
        guard let store = storeByEntity[entity.name] else { throw SwiftDataError.notInContainerSchema(entity) }
        return store
    }

    /// The store with an identifier.
    func store(identifier: String?) -> (any ModelStore)? {
        stores.first { $0.identifier == identifier }
    }

    /// An identifier a store read for a target of one of its links, naming the store that holds the target's
    /// entity: a store names itself in the identifiers it reads.
    func located(_ target: PersistentIdentifier, in destination: Schema.Entity) -> PersistentIdentifier {
        guard hasLinksAcrossStores, let store = storeByEntity[destination.name],
            target.storeIdentifier != store.identifier
        else { return target }
        return target.inScope(store.identifierScope(entityName: target.entityName))
    }

    /// A relationship slot's stored state as a store read it, with its target located (see `located(_:in:)`).
    func locatingTarget(of state: Any, property: Schema.Entity.Property) -> Any {
        guard hasLinksAcrossStores, let fault = state as? ModelStorage.ToOneFault, let target = fault.target,
            let destination = property.relationshipInfo?.destination
        else { return state }
        return ModelStorage.ToOneFault(target: located(target, in: destination))
    }

    /// Locates the targets of the to-one relationships in a new model's slots (see `located(_:in:)`).
    func locateTargets(in slots: ModelSlots, of entity: Schema.Entity) {
        guard hasLinksAcrossStores else { return }
        for property in entity.persistedProperties where property.isRelationship {
            slots[property.index] = locatingTarget(of: slots[property.index], property: property)
        }
    }

    /// True when some relationship's destination is in another store than its owner.
    private static func hasLinksAcrossStores(
        _ entities: [Schema.Entity], storeByEntity: [String: any ModelStore]
    ) -> Bool {
        entities.contains { entity in
            entity.persistedProperties.contains { property in
                guard let destination = property.relationshipInfo?.destination else { return false }
                return storeByEntity[destination.name] !== storeByEntity[entity.name]
            }
        }
    }
}

extension ModelContainer: Equatable {
    /// Containers are equal when they are the same instance.
    public static func == (lhs: ModelContainer, rhs: ModelContainer) -> Bool { lhs === rhs }
}

/// Holds the main context; only ever read or written on the main actor.
private struct MainContextBox: @unchecked Sendable {
    // @unchecked: the context is created and used on the main actor only (`mainContext` is @MainActor).
    let context: ModelContext
}

extension SwiftDataError {
    /// The error for a model of an entity that no store of the container holds.
    static func notInContainerSchema(
        _ entity: Schema.Entity,
        fileID: String = #fileID,
        line: Int = #line
    ) -> SwiftDataError {
        SwiftDataError(
            .configurationSchemaNotFoundInContainerSchema,
            "\(entity.name) is not part of this container's schema",
            entityName: entity.name,
            fileID: fileID,
            line: line
        )
    }
}
