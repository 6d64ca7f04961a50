internal import Foundation
internal import Synchronization

/// The value that uniquely identifies a model in its store.
///
/// A model inserted into a context has a temporary identifier until the context saves it; saving gives it a
/// permanent one, which stays the same across saves and across reopening the store. Identifiers are `Sendable`
/// and `Codable`, so they are what you pass between actors and contexts.
public struct PersistentIdentifier: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The parts that make an identifier unique: store, entity and primary key.
    public struct ID: Hashable, Comparable, Codable, Sendable {
        /// The identifier of the store that holds the model, or nil while the model is unsaved.
        public var storeIdentifier: String? { scope.storeIdentifier }
        /// The name of the model's entity.
        public var entityName: String { scope.entityName }
        /// The store and entity, shared by the identifiers a store makes for one entity's rows.
        let scope: IdentifierScope
        let key: Key

        init(scope: IdentifierScope, key: Key) {
            self.scope = scope
            self.key = key
        }

        /// Equal when their stores, entities and keys are: identifiers of one entity's rows share their scope, so
        /// the strings are compared only for identifiers made apart.
        public static func == (lhs: ID, rhs: ID) -> Bool {
            lhs.key == rhs.key && (lhs.scope === rhs.scope || lhs.scope == rhs.scope)
        }

        /// Hashes the key alone: identifiers are hashed on every fetch and save, the store and entity strings cost
        /// more to hash than they separate, and equality still compares every part.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
        }

        /// Orders by store, entity, then key.
        public static func < (lhs: ID, rhs: ID) -> Bool {
            if lhs.scope === rhs.scope { return lhs.key < rhs.key }
            return ((lhs.storeIdentifier ?? ""), lhs.entityName, lhs.key) < (
                (rhs.storeIdentifier ?? ""), rhs.entityName, rhs.key
            )
        }

        private enum CodingKeys: String, CodingKey {
            case storeIdentifier, entityName, key
        }

        /// Decodes the parts `encode(to:)` wrote.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            scope = IdentifierScope(
                storeIdentifier: try container.decodeIfPresent(String.self, forKey: .storeIdentifier),
                entityName: try container.decode(String.self, forKey: .entityName))
            key = try container.decode(Key.self, forKey: .key)
        }

        /// Encodes the store identifier (when there is one), the entity name and the key.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
            try container.encode(entityName, forKey: .entityName)
            try container.encode(key, forKey: .key)
        }
    }

    /// The identifier's unique parts.
    public let id: ID

    /// The identifier of the store that holds the model, or nil while the model is unsaved.
    public var storeIdentifier: String? { id.storeIdentifier }
    /// The name of the model's entity.
    public var entityName: String { id.entityName }

    /// Creates an identifier for a model that a store keeps under a primary key of its own.
    ///
    /// Custom stores (see `DataStore`) call this to give each model they save a permanent identifier, with any
    /// primary key that is `Codable`, `Hashable`, `Comparable` and `CustomStringConvertible` — a `UUID`, a `String`,
    /// an integer:
    ///
    /// ```swift
    /// let identifier = try PersistentIdentifier.identifier(
    ///     for: store.identifier, entityName: "Trip", primaryKey: UUID())
    /// ```
    ///
    /// Two identifiers are equal when their store identifiers, entity names and primary keys are equal, and their
    /// keys are of the same type. Integer keys that fit in `Int64` are kept as the integer itself, as the SQLite
    /// store keeps its rows' keys; other keys are kept in a canonical encoded form, so an identifier decoded from
    /// JSON equals the one that was encoded.
    ///
    /// - Throws: The error the key's `encode(to:)` throws, when it cannot be encoded.
    public static func identifier<PrimaryKey>(
        for storeIdentifier: String,
        entityName: String,
        primaryKey: PrimaryKey
    ) throws -> PersistentIdentifier
    where PrimaryKey: Comparable & CustomStringConvertible & Codable & Hashable {
        if let integer = primaryKey as? any BinaryInteger, let row = Int64(exactly: integer) {
            return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: row)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let value = String(decoding: try encoder.encode(primaryKey), as: UTF8.self)
        let key = Key.encoded(EncodedKey(type: String(describing: PrimaryKey.self), value: value))
        return PersistentIdentifier(
            id: ID(scope: IdentifierScope(storeIdentifier: storeIdentifier, entityName: entityName), key: key))
    }

    /// Orders identifiers by store, entity and key.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool { lhs.id < rhs.id }

    /// A readable form: `t` and a counter for temporary identifiers, the store, entity and row (or encoded primary
    /// key) otherwise.
    public var description: String {
        switch id.key {
        case .temporary(let number): "PersistentIdentifier(\(entityName)/t\(number))"
        case .permanent(let row): "PersistentIdentifier(\(storeIdentifier ?? "?")/\(entityName)/p\(row))"
        case .encoded(let encoded): "PersistentIdentifier(\(storeIdentifier ?? "?")/\(entityName)/\(encoded.value))"
        }
    }

    // MARK: - Internal

    init(storeIdentifier: String, entityName: String, primaryKey: Int64) {
        self.init(
            scope: IdentifierScope(storeIdentifier: storeIdentifier, entityName: entityName), primaryKey: primaryKey)
    }

    /// The identifier of a row whose store and entity `scope` names.
    package init(scope: IdentifierScope, primaryKey: Int64) {
        id = ID(scope: scope, key: .permanent(primaryKey))
    }

    private static let temporaryCounter = Atomic<UInt64>(0)

    /// A new temporary identifier for a model of an entity, unique in this process.
    static func temporary(of entity: Schema.Entity) -> PersistentIdentifier {
        let number = temporaryCounter.add(1, ordering: .relaxed).newValue
        return PersistentIdentifier(id: ID(scope: entity.temporaryIdentifierScope, key: .temporary(number)))
    }

    private init(id: ID) { self.id = id }

    /// This identifier with another scope, of another store: the same key.
    func inScope(_ scope: IdentifierScope) -> PersistentIdentifier {
        PersistentIdentifier(id: ID(scope: scope, key: id.key))
    }

    /// This identifier with another entity's name: the same store and key. Within an inheritance hierarchy, which
    /// shares its rows' keys, identifiers that name different classes of the hierarchy may refer to one row.
    func withEntityName(_ entityName: String) -> PersistentIdentifier {
        guard entityName != id.entityName else { return self }
        return PersistentIdentifier(
            id: ID(scope: IdentifierScope(storeIdentifier: id.storeIdentifier, entityName: entityName), key: id.key))
    }

    /// True until the model's first save.
    package var isTemporary: Bool {
        if case .temporary = id.key { return true }
        return false
    }

    /// The row's primary key, for permanent identifiers.
    package var primaryKey: Int64? {
        if case .permanent(let row) = id.key { return row }
        return nil
    }
}

/// The store and entity that identifiers name: one object that the identifiers of an entity's rows in a store share,
/// so that copying an identifier retains one reference instead of two strings, and comparing two of one entity
/// compares references.
package final class IdentifierScope: Hashable, Sendable {
    /// The identifier of the store, or nil for temporary identifiers.
    let storeIdentifier: String?
    /// The name of the entity.
    let entityName: String

    init(storeIdentifier: String?, entityName: String) {
        self.storeIdentifier = storeIdentifier
        self.entityName = entityName
    }

    package static func == (lhs: IdentifierScope, rhs: IdentifierScope) -> Bool {
        lhs === rhs || (lhs.entityName == rhs.entityName && lhs.storeIdentifier == rhs.storeIdentifier)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(storeIdentifier)
        hasher.combine(entityName)
    }
}
