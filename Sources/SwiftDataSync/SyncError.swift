internal import Foundation

/// An error the sync engine throws: a schema that breaks CloudKit's rules, a container with nothing to sync, or a
/// server that cannot serve the account.
///
/// Compare with the static members; `==` compares the kind only, so `catch let error as SyncError where error ==
/// .schemaNotSyncable` works while the details travel along.
public struct SyncError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A rule of CloudKit's that a property or model breaks.
    public enum Rule: String, Hashable, Sendable {
        /// A unique attribute, or a `#Unique` constraint: replicas cannot agree on uniqueness while offline.
        case uniqueConstraint
        /// An attribute that is neither optional nor has a default value: a record from a replica that does not
        /// know it (an older schema) would have no value for it.
        case requiredAttributeWithoutDefault
        /// A relationship that is not optional: the related model may arrive later than the model.
        case nonOptionalRelationship
        /// A relationship whose delete rule is `.deny`: a replica cannot refuse a deletion another one made.
        case denyDeleteRule
        /// A relationship with a maximum count: members added on different replicas can together exceed it, and
        /// no replica could then save what it fetched.
        case maximumModelCount
    }

    /// One property (or model, for a constraint) that breaks a rule.
    public struct Violation: Hashable, Sendable, CustomStringConvertible {
        /// The model's entity name.
        public let entityName: String
        /// The property, or the properties of a uniqueness constraint joined by commas.
        public let propertyName: String
        /// The rule broken.
        public let rule: Rule

        /// A sentence naming the model, property and rule.
        public var description: String {
            switch rule {
            case .uniqueConstraint: "\(entityName).\(propertyName) is unique; synced models have no unique constraints"
            case .requiredAttributeWithoutDefault:
                "\(entityName).\(propertyName) is neither optional nor has a default value"
            case .nonOptionalRelationship: "\(entityName).\(propertyName) is a relationship that is not optional"
            case .denyDeleteRule: "\(entityName).\(propertyName) has the delete rule .deny"
            case .maximumModelCount: "\(entityName).\(propertyName) has a maximum model count"
            }
        }
    }

    private enum Code: Hashable, Sendable {
        case schemaNotSyncable, noSyncedStore, accountMismatch, serverNotPrepared, unreadableRecord, offline, busyStore
    }

    private let code: Code
    /// What is wrong, in a sentence or more.
    public let message: String
    /// For `schemaNotSyncable`: each property that breaks a rule.
    public let violations: [Violation]
    /// The error that caused this one, if any.
    public let underlying: (any Error)?

    private init(_ code: Code, _ message: String, violations: [Violation] = [], underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.violations = violations
        self.underlying = underlying
    }

    // MARK: - Kinds of Errors

    /// The schema breaks rules that synced models follow (CloudKit's); ``violations`` names each property.
    public static let schemaNotSyncable = SyncError(.schemaNotSyncable, "the schema cannot be synced")
    /// No configuration of the container syncs: each one's `cloudKitDatabase` is `.none`, or none is stored in a
    /// file.
    public static let noSyncedStore = SyncError(.noSyncedStore, "no store of the container syncs")
    /// The server connection's role is not the account's.
    public static let accountMismatch = SyncError(.accountMismatch, "the server connection is not the account's")
    /// The server has no sync tables, and the account's role may not create them.
    public static let serverNotPrepared = SyncError(.serverNotPrepared, "the server has no sync tables")
    /// A record from the server could not be read into a model.
    public static let unreadableRecord = SyncError(.unreadableRecord, "a record could not be read")
    /// The server could not be reached.
    public static let offline = SyncError(.offline, "the server could not be reached")
    /// Other contexts saved the store each time the engine was about to apply fetched changes; nothing of them was
    /// applied, and the next fetch tries again.
    public static let busyStore = SyncError(.busyStore, "the store kept changing while changes were applied")

    public var description: String {
        var text = "SyncError: " + message
        for violation in violations { text += "\n  - " + violation.description }
        if let underlying { text += "\n  (\(underlying))" }
        return text
    }

    public static func == (lhs: SyncError, rhs: SyncError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    // MARK: - Internal

    static func schemaNotSyncable(_ violations: [Violation]) -> SyncError {
        SyncError(
            .schemaNotSyncable,
            "the schema breaks \(violations.count) rule(s) of synced models (CloudKit's)", violations: violations)
    }

    static func noSyncedStore(_ reason: String) -> SyncError { SyncError(.noSyncedStore, reason) }

    static func accountMismatch(account: String, role: String) -> SyncError {
        SyncError(
            .accountMismatch,
            "the engine of account \(account) connected as the role \(role); each account connects as its own role")
    }

    static func serverNotPrepared(role: String, underlying: any Error) -> SyncError {
        SyncError(
            .serverNotPrepared,
            "the database has no sync tables and the role \(role) could not create them; run "
                + "SyncServer.preparePostgreSQL(url:) once as the database's owner", underlying: underlying)
    }

    static func unreadableRecord(_ name: String, entity: String, field: String, underlying: (any Error)?)
        -> SyncError
    {
        SyncError(
            .unreadableRecord, "field \(field) of \(entity) record \(name) does not hold a value of its type",
            underlying: underlying)
    }

    static func busyStore(attempts: Int) -> SyncError {
        SyncError(
            .busyStore,
            "other contexts saved the store during each of \(attempts) attempts to apply fetched changes; nothing "
                + "was applied")
    }

    static func offline(_ underlying: any Error) -> SyncError {
        SyncError(.offline, "the server could not be reached", underlying: underlying)
    }
}
