extension ModelConfiguration {
    /// Opens (creating or migrating as needed) the SQLite store this configuration describes, for some entities.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the store cannot be opened, created or migrated.
    func makeStore(
        entities: [Schema.Entity], version: Schema.Version, migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> any ModelStore {
        try SQLiteStore(configuration: self, entities: entities, version: version, migrationPlan: migrationPlan)
    }
}
