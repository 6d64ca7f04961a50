/// Opens the store a configuration describes, for some entities: SwiftData's SQLite store for a
/// `ModelConfiguration`, the configuration's own store type (a custom `DataStore`) otherwise.
///
/// - Throws: `SwiftDataError.loadIssueModelContainer` when SwiftData's store cannot be opened, created or
///   migrated; what a custom store's initializer throws.
func openStore(
    for configuration: any DataStoreConfiguration, entities: [Schema.Entity], version: Schema.Version,
    migrationPlan: (any SchemaMigrationPlan.Type)?
) throws -> any ModelStore {
    if let configuration = configuration as? ModelConfiguration {
        return try configuration.makeStore(entities: entities, version: version, migrationPlan: migrationPlan)
    }
    return try openCustomStore(configuration, entities: entities, migrationPlan: migrationPlan)
}

/// Opens a custom store, seen through the store interface.
private func openCustomStore<Configuration: DataStoreConfiguration>(
    _ configuration: Configuration, entities: [Schema.Entity], migrationPlan: (any SchemaMigrationPlan.Type)?
) throws -> any ModelStore {
    try DataStoreAdapter<Configuration.Store>(
        configuration: configuration, entities: entities, migrationPlan: migrationPlan)
}

/// What sets configurations apart as stores: configurations of SwiftData's store at one location share a store;
/// each configuration of a custom store has one of its own.
func storeLocation(of configuration: any DataStoreConfiguration) -> String {
    if let configuration = configuration as? ModelConfiguration { return configuration.id }
    return "\(type(of: configuration)):\(configuration.name)"
}
