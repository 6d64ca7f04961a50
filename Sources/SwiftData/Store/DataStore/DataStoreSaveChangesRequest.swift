/// A request a context makes of a data store to write its changes: one snapshot per inserted, updated and deleted
/// model.
public struct DataStoreSaveChangesRequest<SnapshotType>: Sendable where SnapshotType: DataStoreSnapshot {
    /// Snapshots of the models inserted since the last save, under temporary identifiers.
    public let inserted: [SnapshotType]
    /// Snapshots of the saved models that changed, with their current values.
    public let updated: [SnapshotType]
    /// Snapshots of the saved models that were deleted.
    public let deleted: [SnapshotType]
    /// The context that makes the request.
    public let editingState: EditingState

    // MARK: - Internal

    /// A request to write the given changes, on behalf of an editing state.
    package init(
        inserted: [SnapshotType],
        updated: [SnapshotType],
        deleted: [SnapshotType],
        editingState: EditingState
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.editingState = editingState
    }
}
