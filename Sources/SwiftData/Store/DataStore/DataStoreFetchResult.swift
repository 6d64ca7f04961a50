/// What a data store returns for a fetch: a snapshot of each fetched model, and optionally of related models.
public struct DataStoreFetchResult<ModelType, SnapshotType>: Sendable
where ModelType: PersistentModel, SnapshotType: DataStoreSnapshot {
    /// The descriptor of the fetch.
    public let descriptor: FetchDescriptor<ModelType>
    /// The fetched models' snapshots, in the order of the results.
    public let fetchedSnapshots: [SnapshotType]
    /// Snapshots of models the fetched ones relate to, by identifier, so that their relationships can be followed
    /// without another fetch.
    ///
    /// SwiftData keeps them for the context that fetched, and the context's next read of such a model by
    /// identifier (a to-one relationship's first access, `ModelContext.model(for:)`) takes the model's values from
    /// its snapshot instead of asking the store. A snapshot is used once, and none is used after a save of its
    /// model or once the context ends. A to-many relationship whose related models name their owner is still
    /// read with a fetch of those models.
    public let relatedSnapshots: [PersistentIdentifier: SnapshotType]

    /// Creates the result of a fetch.
    ///
    /// - Parameters:
    ///   - descriptor: The descriptor of the fetch, as the request gave it.
    ///   - fetchedSnapshots: A snapshot of each fetched model, in the order of the results.
    ///   - relatedSnapshots: Snapshots of related models, by identifier; none by default.
    public init(
        descriptor: FetchDescriptor<ModelType>,
        fetchedSnapshots: [SnapshotType],
        relatedSnapshots: [PersistentIdentifier: SnapshotType] = [:]
    ) {
        self.descriptor = descriptor
        self.fetchedSnapshots = fetchedSnapshots
        self.relatedSnapshots = relatedSnapshots
    }
}
