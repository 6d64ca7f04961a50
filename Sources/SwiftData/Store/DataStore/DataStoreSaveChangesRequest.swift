/// A request a context makes of a data store to write its changes: one snapshot per inserted, updated and deleted
/// model.
public struct DataStoreSaveChangesRequest<SnapshotType>: Sendable where SnapshotType: DataStoreSnapshot {
    /// Snapshots of the models inserted since the last save, under temporary identifiers.
    public let inserted: [SnapshotType]
    /// Snapshots of the saved models that changed, with their current values.
    ///
    /// When the request deletes models, it also holds the saved models that lose a deleted one from a
    /// relationship whose delete rule is `.nullify`, without it; no inserted or updated snapshot names a deleted
    /// model.
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
