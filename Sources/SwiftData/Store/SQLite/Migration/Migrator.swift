/// Brings a store written with an older schema up to the code's schema, in one transaction.
///
/// With a migration plan, the store's version is looked up among the plan's schemas and every stage from there to
/// the current version runs in order: a lightweight stage rebuilds the tables (`TableRebuilder`); a custom stage
/// runs `willMigrate` on a context over the old models, rebuilds the tables with new required columns left open,
/// runs `didMigrate` on a context over the new models, and then requires every such column to have a value. Without
/// a plan, or when the stages end short of the code's schema, the remaining change is inferred. Any failure rolls
/// the whole migration back, so the store stays as it was, openable with the old schema.
struct Migrator {
    let connection: SQLiteConnection
    let stored: StoredSchema
    let target: StoredSchema
    let entities: [Schema.Entity]
    let layouts: [String: SQLTableLayout]
    let plan: (any SchemaMigrationPlan.Type)?
    let configuration: ModelConfiguration
    let storeIdentifier: String
    let path: String

    /// Runs the migration and records the new schema in the store's metadata.
    func migrate(version: Schema.Version, schemaText: String) throws {
        try connection.inTransaction {
            var current = stored
            if let plan { current = try runStages(of: plan, from: current) }
            if !current.hasSameShape(as: target) {
                try rebuild(
                    from: current,
                    to: entities,
                    layouts: layouts,
                    leavingRequiredColumnsOpen: false,
                    dropsRemovedEntities: false
                )
            }
            let update = try connection.statement(
                "INSERT OR REPLACE INTO \(quoted(SQLiteStore.metadataTable)) (key, value) VALUES (?1, ?2)"
            )
            try update.execute([.text("schema"), .text(schemaText)])
            try update.execute([.text("model"), .text(try target.encoded())])
            try update.execute([.text("schemaVersion"), .text(version.description)])
        }
    }

    // MARK: - Stages

    private func runStages(of plan: any SchemaMigrationPlan.Type, from stored: StoredSchema) throws -> StoredSchema {
        var current = stored
        for step in try MigrationStep.steps(of: plan, from: stored.version, to: target.version, location: path) {
            current = try run(step.stage, from: step.from, to: step.to, current: current)
        }
        return current
    }

    private func run(
        _ stage: MigrationStage?,
        from: any VersionedSchema.Type,
        to: any VersionedSchema.Type,
        current: StoredSchema
    ) throws -> StoredSchema {
        let toSchema = Schema(versionedSchema: to)
        let toLayouts = try Self.layouts(of: toSchema)
        let described = StoredSchema(
            entities: toSchema.modelEntities, layouts: toLayouts, version: to.versionIdentifier)
        guard case .custom(_, _, let willMigrate, let didMigrate) = stage else {
            try rebuild(
                from: current, to: toSchema.modelEntities, layouts: toLayouts, leavingRequiredColumnsOpen: false)
            return described
        }
        if let willMigrate {
            let fromSchema = Schema(versionedSchema: from)
            try runContext(schema: fromSchema, layouts: try Self.layouts(of: fromSchema), willMigrate)
        }
        try rebuild(from: current, to: toSchema.modelEntities, layouts: toLayouts, leavingRequiredColumnsOpen: true)
        if let didMigrate { try runContext(schema: toSchema, layouts: toLayouts, didMigrate) }
        try requireValues(
            in: toSchema.modelEntities, layouts: toLayouts, stage: "\(from.versionIdentifier) → \(to.versionIdentifier)"
        )
        // The tables now hold every value; rebuild once more so required columns are NOT NULL again.
        var open = described
        for index in open.entities.indices {
            for column in open.entities[index].columns.indices {
                open.entities[index].columns[column].isNullable = true
            }
        }
        try rebuild(from: open, to: toSchema.modelEntities, layouts: toLayouts, leavingRequiredColumnsOpen: false)
        return described
    }

    // MARK: - Internal

    private func rebuild(
        from old: StoredSchema,
        to entities: [Schema.Entity],
        layouts: [String: SQLTableLayout],
        leavingRequiredColumnsOpen: Bool,
        dropsRemovedEntities: Bool = true
    ) throws {
        do {
            var rebuilder = TableRebuilder(
                connection: connection,
                old: old,
                entities: entities,
                layouts: layouts,
                leavesRequiredColumnsOpen: leavingRequiredColumnsOpen
            )
            rebuilder.dropsRemovedEntities = dropsRemovedEntities
            try rebuilder.rebuild()
        } catch let refusal as MigrationRefusal {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the store at \(path) cannot be migrated: \(refusal.description)"
            )
        }
    }

    /// Runs a stage's closure with a context over the store's tables as they are now, and saves what it changed.
    private func runContext(
        schema: Schema,
        layouts: [String: SQLTableLayout],
        _ body: (ModelContext) throws -> Void
    ) throws {
        let store = SQLiteStore(
            migratingWith: connection,
            entities: schema.modelEntities,
            layouts: layouts,
            identifier: storeIdentifier,
            configuration: configuration
        )
        let container = ModelContainer(migrating: store, configuration: configuration, schema: schema)
        let context = ModelContext(container)
        try body(context)
        if context.hasChanges { try context.save() }
    }

    /// Requires every required column to have a value once `didMigrate` has run.
    private func requireValues(in entities: [Schema.Entity], layouts: [String: SQLTableLayout], stage: String) throws {
        for entity in entities {
            guard let layout = layouts[entity.name] else { continue }
            // A hierarchy's type column (`SQLTableLayout.typeIndex`) names no property; name the column instead.
            for column in layout.columns where !column.isNullable {
                let sql = "SELECT count(*) FROM \(quoted(entity.tableName)) WHERE \(quoted(column.name)) IS NULL"
                guard case .integer(let missing) = try connection.statement(sql).rows().first?.first, missing > 0 else {
                    continue
                }
                let property =
                    column.propertyIndex >= 0 ? entity.persistedProperties[column.propertyIndex].name : column.name
                throw SwiftDataError(
                    .loadIssueModelContainer,
                    "migration stage \(stage) left \(entity.name).\(property) "
                        + "without a value in \(missing) row(s); fill it in didMigrate"
                )
            }
        }
    }

    static func layouts(of schema: Schema) throws -> [String: SQLTableLayout] {
        try SQLiteStore.layouts(of: schema.modelEntities)
    }
}
