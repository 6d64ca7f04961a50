/// A request to delete every model of a type that matches a predicate.
public struct DataStoreBatchDeleteRequest<T>: Sendable where T: PersistentModel {
    /// The context that makes the request.
    public let editingState: EditingState
    /// True to delete models of the type's `@Model` subclasses too.
    public let includeSubclasses: Bool
    /// The models to delete; nil deletes every model of the type.
    public let predicate: Predicate<T>?

    // MARK: - Internal

    /// A request to delete the models a predicate matches, on behalf of an editing state.
    package init(predicate: Predicate<T>?, includeSubclasses: Bool = true, editingState: EditingState) {
        self.predicate = predicate
        self.includeSubclasses = includeSubclasses
        self.editingState = editingState
    }
}
