extension ModelContainer {
    // MARK: - Creating a Container with Any Store

    /// Creates a container for a schema with configurations of any store type.
    ///
    /// ``ModelConfiguration``s open SwiftData's own store, as `init(for:migrationPlan:configurations:)` does.
    ///
    /// - Throws: What each configuration's `validate()` throws; the errors
    ///   `init(for:migrationPlan:configurations:)` throws; and `SwiftDataError.loadIssueModelContainer` for a
    ///   configuration of a custom store: the container cannot open custom stores yet (issue 17).
    public convenience init(for givenSchema: Schema, configurations: [any DataStoreConfiguration]) throws {
        var modelConfigurations: [ModelConfiguration] = []
        for configuration in configurations {
            try configuration.validate()
            guard let modelConfiguration = configuration as? ModelConfiguration else {
                throw SwiftDataError(
                    .loadIssueModelContainer,
                    "custom stores are not wired yet: the configuration '\(configuration.name)' opens a "
                        + "\(Self.storeTypeName(of: configuration)), which ModelContainer cannot open yet")
            }
            modelConfigurations.append(modelConfiguration)
        }
        try self.init(for: givenSchema, migrationPlan: nil, configurations: modelConfigurations)
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

    // MARK: - Internal

    /// The name of the store type a configuration opens.
    private static func storeTypeName<Configuration: DataStoreConfiguration>(of configuration: Configuration)
        -> String
    {
        String(describing: Configuration.Store.self)
    }
}
