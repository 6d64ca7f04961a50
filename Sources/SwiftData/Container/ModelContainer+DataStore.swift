extension ModelContainer {
    // MARK: - Creating a Container with Any Store

    /// Creates a container for a schema with configurations of any store type.
    ///
    /// ``ModelConfiguration``s open SwiftData's own store, as `init(for:migrationPlan:configurations:)` does; any
    /// other configuration opens its `Store` type, a custom ``DataStore``:
    ///
    /// ```swift
    /// let container = try ModelContainer(for: schema, configurations: [JSONStoreConfiguration(name: "trips", fileURL: url)])
    /// ```
    ///
    /// Contexts read and write a custom store through its fetch and save requests: what it leaves to SwiftData
    /// (`DataStoreError.preferInMemoryFilter` and `.preferInMemorySort`) runs in memory on models, with Swift's
    /// semantics. Calls into one custom store are made one at a time. A custom store commits what it saves, so in
    /// a save that spans several stores it is written after SwiftData's own stores have written their part, and
    /// its refusal leaves them as they were.
    ///
    /// - Throws: What each configuration's `validate()` throws; the errors
    ///   `init(for:migrationPlan:configurations:)` throws; what a custom store's initializer throws.
    public convenience init(for givenSchema: Schema, configurations: [any DataStoreConfiguration]) throws {
        try self.init(for: givenSchema, migrationPlan: nil, storeConfigurations: configurations)
    }

    /// Creates a container for a schema with a migration plan and configurations of any store type.
    ///
    /// An addition to Apple's API, whose initializers take a plan only with ``ModelConfiguration``s: a store that
    /// migrates, such as a PostgreSQL store, runs the plan's stages when it opens a database written with an older
    /// version, as SwiftData's own store does; a custom ``DataStore`` receives the plan in `init(_:migrationPlan:)`.
    ///
    /// ```swift
    /// let container = try ModelContainer(
    ///     for: Schema(versionedSchema: SchemaV2.self), migrationPlan: NotesMigrationPlan.self,
    ///     configurations: [PostgreSQLConfiguration(url: url)])
    /// ```
    ///
    /// - Throws: The errors `init(for:configurations:)` with a schema throws, and the migration's.
    public convenience init(
        for givenSchema: Schema,
        migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: [any DataStoreConfiguration]
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, storeConfigurations: configurations)
    }

    /// Creates a container for model types (and every type they relate to) with configurations of any store type.
    ///
    /// - Throws: The errors `init(for:configurations:)` with a schema throws.
    public convenience init(
        for forTypes: any PersistentModel.Type...,
        configurations: any DataStoreConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), configurations: configurations)
    }
}
