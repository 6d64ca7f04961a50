/// An error SwiftData throws.
///
/// Compare with Apple's static members (`catch let error as SwiftDataError where error == .unsupportedPredicate`);
/// equality looks at the kind of error only, while `description` also says what went wrong and where.
public struct SwiftDataError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    package enum Code: String, Hashable, Sendable {
        case includePendingChangesWithBatchSize, sortingPendingChangesWithIdentifiers, unsupportedKeyPath
        case unsupportedPredicate, unsupportedSortDescriptor, configurationFileNameContainsInvalidCharacters
        case configurationFileNameTooLong, configurationSchemaNotFoundInContainerSchema, duplicateConfiguration
        case loadIssueModelContainer, modelValidationFailure, missingModelContext, backwardMigration, unknownSchema
        case historyTokenExpired, invalidTransactionFetchRequest
    }

    /// What went wrong, where, and what caused it.
    struct Context: @unchecked Sendable {
        // @unchecked: `underlying` errors are only read, for their description.
        var message: String
        var entityName: String?
        var sql: String?
        var underlying: (any Error)?
        var location: String
    }

    let code: Code
    private(set) var context: Context

    package init(
        _ code: Code,
        _ message: String,
        entityName: String? = nil,
        sql: String? = nil,
        underlying: (any Error)? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.context = Context(
            message: message,
            entityName: entityName,
            sql: sql,
            underlying: underlying,
            location: "\(fileID):\(line)"
        )
    }

    private init(code: Code) {
        self.init(code, code.rawValue)
    }

    // MARK: - Fetch Errors

    /// A batched fetch asked to include pending changes, which batches cannot do.
    public static let includePendingChangesWithBatchSize = SwiftDataError(code: .includePendingChangesWithBatchSize)
    /// `fetchIdentifiers` was asked to sort while including pending changes.
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError(code: .sortingPendingChangesWithIdentifiers)
    /// A key path does not name a persisted property.
    public static let unsupportedKeyPath = SwiftDataError(code: .unsupportedKeyPath)
    /// A predicate uses something SwiftData cannot evaluate.
    public static let unsupportedPredicate = SwiftDataError(code: .unsupportedPredicate)
    /// A sort descriptor uses something SwiftData cannot sort by.
    public static let unsupportedSortDescriptor = SwiftDataError(code: .unsupportedSortDescriptor)

    // MARK: - Configuration Errors

    /// A configuration's name contains characters a file name cannot hold.
    public static let configurationFileNameContainsInvalidCharacters = SwiftDataError(
        code: .configurationFileNameContainsInvalidCharacters
    )
    /// A configuration's name is too long for a file name.
    public static let configurationFileNameTooLong = SwiftDataError(code: .configurationFileNameTooLong)
    /// A configuration's schema has entities the container's schema lacks.
    public static let configurationSchemaNotFoundInContainerSchema = SwiftDataError(
        code: .configurationSchemaNotFoundInContainerSchema
    )
    /// Two configurations of one container are the same.
    public static let duplicateConfiguration = SwiftDataError(code: .duplicateConfiguration)

    // MARK: - Container and Context Errors

    /// The container could not open or create its stores.
    public static let loadIssueModelContainer = SwiftDataError(code: .loadIssueModelContainer)
    /// A model failed validation when saving, or the save could not be written.
    public static let modelValidationFailure = SwiftDataError(code: .modelValidationFailure)
    /// An operation needed a model context and the model has none.
    public static let missingModelContext = SwiftDataError(code: .missingModelContext)

    // MARK: - Migration Errors

    /// The store's schema version is newer than the code's.
    public static let backwardMigration = SwiftDataError(code: .backwardMigration)
    /// The store's schema matches no version the code knows.
    public static let unknownSchema = SwiftDataError(code: .unknownSchema)

    // MARK: - History Errors

    /// A history token refers to history that was deleted.
    public static let historyTokenExpired = SwiftDataError(code: .historyTokenExpired)
    /// A history fetch request is not valid.
    public static let invalidTransactionFetchRequest = SwiftDataError(code: .invalidTransactionFetchRequest)

    // MARK: - Describing Errors

    /// The kind of error and what went wrong.
    public var description: String {
        var text = "SwiftDataError.\(code.rawValue): \(context.message)"
        if let underlying = context.underlying { text += " (\(underlying))" }
        return text
    }

    /// A tree with the reason, entity, SQL, cause and source location.
    public var debugDescription: String {
        var lines = ["SwiftDataError: \(code.rawValue)", "├─ Reason: \(context.message)"]
        if let entityName = context.entityName { lines.append("├─ Entity: \(entityName)") }
        if let sql = context.sql { lines.append("├─ SQL: \(sql)") }
        if let underlying = context.underlying { lines.append("├─ Underlying: \(underlying)") }
        lines.append("└─ At: \(context.location)")
        return lines.joined(separator: "\n")
    }

    /// Errors are equal when they are of the same kind.
    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool { lhs.code == rhs.code }

    /// Hashes the kind of error.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The same error, its message prefixed with where it happened (a store, the model being saved), and its
    /// entity set when it had none.
    /// The error beneath this one: a store's own, such as the server's answer.
    package var underlyingError: (any Error)? { context.underlying }

    package func adding(place: String, entityName: String?) -> SwiftDataError {
        var copy = self
        copy.context.message = "\(place): \(context.message)"
        if copy.context.entityName == nil { copy.context.entityName = entityName }
        return copy
    }

    /// Matches an error of the same kind, for `case .unsupportedPredicate` patterns.
    public static func ~= (pattern: SwiftDataError, value: any Error) -> Bool {
        (value as? SwiftDataError)?.code == pattern.code
    }
}
