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
        public let storeIdentifier: String?
        /// The name of the model's entity.
        public let entityName: String
        let key: Key

        /// Hashes the key alone: identifiers are hashed on every fetch and save, the store and entity strings cost
        /// more to hash than they separate, and equality still compares every part.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
        }

        /// Orders by store, entity, then key.
        public static func < (lhs: ID, rhs: ID) -> Bool {
            ((lhs.storeIdentifier ?? ""), lhs.entityName, lhs.key) < (
                (rhs.storeIdentifier ?? ""), rhs.entityName, rhs.key
            )
        }
    }

    /// A temporary key (before the first save) or the row's primary key.
    enum Key: Hashable, Comparable, Codable, Sendable {
        case temporary(UInt64)
        case permanent(Int64)
    }

    /// The identifier's unique parts.
    public let id: ID

    /// The identifier of the store that holds the model, or nil while the model is unsaved.
    public var storeIdentifier: String? { id.storeIdentifier }
    /// The name of the model's entity.
    public var entityName: String { id.entityName }

    /// Creates an identifier for a row of a store.
    ///
    /// - Throws: `SwiftDataError.unsupportedKeyPath` when the primary key is not an integer.
    public static func identifier<PrimaryKey>(
        for storeIdentifier: String,
        entityName: String,
        primaryKey: PrimaryKey
    ) throws -> PersistentIdentifier
    where PrimaryKey: Comparable & CustomStringConvertible & Codable & Hashable {
        guard let key = Int64(primaryKey.description) else {
            throw SwiftDataError(.unsupportedKeyPath, "primary key '\(primaryKey)' is not an integer row identifier")
        }
        return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: key)
    }

    /// Orders identifiers by store, entity and key.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool { lhs.id < rhs.id }

    /// A readable form: `t` and a counter for temporary identifiers, the store, entity and row otherwise.
    public var description: String {
        switch id.key {
        case .temporary(let number): "PersistentIdentifier(\(entityName)/t\(number))"
        case .permanent(let row): "PersistentIdentifier(\(storeIdentifier ?? "?")/\(entityName)/p\(row))"
        }
    }

    // MARK: - Internal

    init(storeIdentifier: String, entityName: String, primaryKey: Int64) {
        id = ID(storeIdentifier: storeIdentifier, entityName: entityName, key: .permanent(primaryKey))
    }

    private static let temporaryCounter = Atomic<UInt64>(0)

    /// A new temporary identifier, unique in this process.
    static func temporary(entityName: String) -> PersistentIdentifier {
        let number = temporaryCounter.add(1, ordering: .relaxed).newValue
        return PersistentIdentifier(id: ID(storeIdentifier: nil, entityName: entityName, key: .temporary(number)))
    }

    private init(id: ID) { self.id = id }

    /// This identifier with another store's identifier: the same entity and key.
    func inStore(_ storeIdentifier: String) -> PersistentIdentifier {
        PersistentIdentifier(id: ID(storeIdentifier: storeIdentifier, entityName: id.entityName, key: id.key))
    }

    /// This identifier with another entity's name: the same store and key. Within an inheritance hierarchy, which
    /// shares its rows' keys, identifiers that name different classes of the hierarchy may refer to one row.
    func withEntityName(_ entityName: String) -> PersistentIdentifier {
        PersistentIdentifier(id: ID(storeIdentifier: id.storeIdentifier, entityName: entityName, key: id.key))
    }

    /// True until the model's first save.
    var isTemporary: Bool {
        if case .temporary = id.key { return true }
        return false
    }

    /// The row's primary key, for permanent identifiers.
    var primaryKey: Int64? {
        if case .permanent(let row) = id.key { return row }
        return nil
    }
}
