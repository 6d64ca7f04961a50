/// The values of one model, as a store reads and writes them.
///
/// SwiftData makes a snapshot of each model a context saves, and a model from each snapshot a store fetches. A
/// snapshot is a value: it does not change when the model does. Most stores use ``DefaultSnapshot``.
public protocol DataStoreSnapshot: Codable, Sendable {
    /// Makes a snapshot of a model's current values from its backing data.
    ///
    /// - Parameters:
    ///   - backingData: The backing data of the model to take a snapshot of.
    ///   - relatedBackingDatas: The backing data of models related to this one, by identifier; the initializer
    ///     adds the backing data of each related model it meets, so that the caller can take snapshots of those
    ///     too.
    init(from backingData: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData])

    /// The identifier of the model the snapshot describes.
    var persistentIdentifier: PersistentIdentifier { get }

    /// Returns the same snapshot under another identifier, with identifiers of related models replaced as a map
    /// says.
    ///
    /// A store calls it when it saves an inserted model, to give the snapshot the permanent identifier it made.
    ///
    /// - Parameters:
    ///   - persistentIdentifier: The identifier of the copy.
    ///   - remappedIdentifiers: New identifiers of related models, by their old identifiers; nil or a missing
    ///     entry keeps a related model's identifier as it is.
    func copy(
        persistentIdentifier: PersistentIdentifier,
        remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> Self
}

/// The kind of value a snapshot holds for one property: anything `Codable` and `Sendable`.
public typealias DataStoreSnapshotValue = Codable & Sendable
