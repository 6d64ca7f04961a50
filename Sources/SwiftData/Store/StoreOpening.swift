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
    if let configuration = configuration as? any BuiltInStoreConfiguration {
        return try configuration.makeStore(entities: entities, version: version, migrationPlan: migrationPlan)
    }
    return try openCustomStore(configuration, entities: entities, migrationPlan: migrationPlan)
}

/// The configuration of a store of this package that implements the store interface itself (the PostgreSQL store,
/// in a module of its own), which the container opens as it opens SQLite's: rows decode straight into models, with
/// no snapshots between.
package protocol BuiltInStoreConfiguration: DataStoreConfiguration {
    /// Opens the store for some entities of the container's schema, at a version of it.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the store cannot be opened, created or migrated.
    func makeStore(
        entities: [Schema.Entity], version: Schema.Version, migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> any ModelStore
}

/// Opens a custom store, seen through the store interface.
private func openCustomStore<Configuration: DataStoreConfiguration>(
    _ configuration: Configuration, entities: [Schema.Entity], migrationPlan: (any SchemaMigrationPlan.Type)?
) throws -> any ModelStore {
    var configuration = configuration
    // A store learns its models (and their subclasses) from its configuration's schema: one given none gets the
    // models the container gives it.
    if configuration.schema == nil { configuration.schema = Schema(entities.compactMap(\.modelType)) }
    return try DataStoreAdapter<Configuration.Store>(
        configuration: configuration, entities: entities, migrationPlan: migrationPlan)
}

/// What sets configurations apart as stores: configurations of SwiftData's store at one location share a store;
/// equal configurations of a custom store share one, and any two that differ have one each.
func storeLocation(of configuration: any DataStoreConfiguration) -> AnyHashable {
    if let configuration = configuration as? ModelConfiguration { return AnyHashable(configuration.id) }
    return AnyHashable(configuration)
}
