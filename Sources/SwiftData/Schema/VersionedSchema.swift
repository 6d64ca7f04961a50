/// A version of an app's schema: its version identifier and the model types it contains.
public protocol VersionedSchema: SendableMetatype {
    /// The schema's version.
    static var versionIdentifier: Schema.Version { get }
    /// The model types of this version.
    static var models: [any PersistentModel.Type] { get }
}

/// The ordered versions of a schema and the stages that migrate a store from one to the next.
public protocol SchemaMigrationPlan: SendableMetatype {
    /// Every version of the schema, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages between consecutive versions.
    static var stages: [MigrationStage] { get }
}

/// One step of a migration plan.
public enum MigrationStage: Sendable {
    /// A migration SwiftData infers from the differences between two versions.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A migration with code that runs before and after the schema changes.
    ///
    /// `willMigrate` sees a context over the old version's models; `didMigrate` one over the new version's, in
    /// which new required properties have no value until it sets one. The closures are `@Sendable`, as Apple
    /// declares them. Either may be omitted, an extension: Apple's cases have no default values.
    @preconcurrency
    case custom(
        fromVersion: any VersionedSchema.Type,
        toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (ModelContext) throws -> Void)? = nil,
        didMigrate: (@Sendable (ModelContext) throws -> Void)? = nil
    )
}
