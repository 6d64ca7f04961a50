/// What a data store returns for a save: the permanent identifiers it gave inserted models, and the snapshots
/// SwiftData should register again.
public final class DataStoreSaveChangesResult<T>: Sendable where T: DataStoreSnapshot {
    /// The identifier of the store that saved.
    public let storeIdentifier: String
    /// The permanent identifier of each inserted model, by its temporary identifier.
    public let remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// Snapshots whose values the store changed while saving (new identifiers, identifiers of related models,
    /// values the store computed), by identifier; SwiftData gives these values to the models.
    ///
    /// Once the save is applied, each model of the saving context with a snapshot's identifier (the permanent one,
    /// for an inserted model) takes the snapshot's attribute values as its saved values: the model is not marked
    /// changed, and its observers are told. Relationships are not taken from these snapshots.
    public let snapshotsToReregister: [PersistentIdentifier: T]

    /// Creates the result of a save.
    ///
    /// - Parameters:
    ///   - storeIdentifier: The identifier of the store that saved.
    ///   - remappedIdentifiers: The permanent identifier of each inserted model, by its temporary identifier.
    ///   - snapshotsToReregister: Snapshots to register again, by identifier.
    public init(
        for storeIdentifier: String,
        remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
        snapshotsToReregister: [PersistentIdentifier: T] = [:]
    ) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
    }
}
