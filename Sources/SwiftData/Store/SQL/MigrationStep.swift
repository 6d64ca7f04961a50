/// One step of a migration plan from one of its versions to a later one: a stage of the plan, or, between versions
/// no stage joins, the change inferred from the two schemas.
package struct MigrationStep {
    /// The plan's stage for the step; nil for an inferred (lightweight) step.
    package let stage: MigrationStage?
    package let from: any VersionedSchema.Type
    package let to: any VersionedSchema.Type

    /// The steps that bring a store from the version it records to the code's, in order: every SQL store runs the
    /// same steps for the same plan.
    ///
    /// - Parameters:
    ///   - plan: The app's migration plan.
    ///   - storedVersion: The version the store records.
    ///   - targetVersion: The code's version.
    ///   - location: Where the store is, for messages.
    /// - Returns: No steps when the plan does not list the code's version (the whole change is then inferred).
    /// - Throws: `SwiftDataError.backwardMigration` when the store's version is newer than the code's;
    ///   `SwiftDataError.unknownSchema` when the plan does not list the store's version, or a stage goes backwards.
    package static func steps(
        of plan: any SchemaMigrationPlan.Type, from storedVersion: String, to targetVersion: String, location: String
    ) throws -> [MigrationStep] {
        let schemas = plan.schemas
        let versions = schemas.map { $0.versionIdentifier.description }
        guard let targetIndex = versions.lastIndex(of: targetVersion) else { return [] }
        guard let startIndex = versions.firstIndex(of: storedVersion) else {
            if let stored = version(storedVersion), let target = version(targetVersion), stored > target {
                throw SwiftDataError(
                    .backwardMigration,
                    "the store at \(location) has schema version \(storedVersion), newer than the code's \(targetVersion)"
                )
            }
            throw SwiftDataError(
                .unknownSchema,
                "the store at \(location) has schema version \(storedVersion), which \(plan) does not list"
            )
        }
        guard startIndex <= targetIndex else {
            throw SwiftDataError(
                .backwardMigration,
                "the store at \(location) has schema version \(storedVersion), newer than the code's \(targetVersion)"
            )
        }
        var steps: [MigrationStep] = []
        var position = startIndex
        while position < targetIndex {
            let from = schemas[position]
            let stage = plan.stages.first { stage in
                stage.fromVersion.versionIdentifier == from.versionIdentifier
            }
            let to = stage.map(\.toVersion) ?? schemas[position + 1]
            guard let next = versions.firstIndex(of: to.versionIdentifier.description), next > position else {
                throw SwiftDataError(.unknownSchema, "a stage of \(plan) goes from \(from.versionIdentifier) backwards")
            }
            guard next <= targetIndex else {
                throw SwiftDataError(
                    .unknownSchema,
                    "a stage of \(plan) goes from \(from.versionIdentifier) past the code's version \(targetVersion)")
            }
            steps.append(MigrationStep(stage: stage, from: from, to: to))
            position = next
        }
        return steps
    }

    /// A version's text (`"1.2.3"`) as a version, to tell newer from older.
    private static func version(_ text: String) -> Schema.Version? {
        let parts = text.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return Schema.Version(parts[0], parts[1], parts[2])
    }
}

extension MigrationStage {
    /// The version the stage starts from.
    var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _): from
        case .custom(let from, _, _, _): from
        }
    }

    /// The version the stage ends at.
    var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to): to
        case .custom(_, let to, _, _): to
        }
    }
}
