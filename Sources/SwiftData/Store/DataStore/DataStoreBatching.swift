/// An interface for data stores that can delete many models at once, without SwiftData loading them.
///
/// `ModelContext.delete(model:where:includeSubclasses:)` asks such a store to delete the matching models itself.
public protocol DataStoreBatching: DataStore {
    /// Deletes every model of a type that a request's predicate matches.
    ///
    /// - Throws: The store's own error, or a ``DataStoreError``.
    func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel
}
