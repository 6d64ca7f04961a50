/// A request a context makes of a data store for the models of one type.
public struct DataStoreFetchRequest<T>: Sendable where T: PersistentModel {
    /// Which models to fetch, in what order, and how many.
    public let descriptor: FetchDescriptor<T>
    /// The context that makes the request.
    public let editingState: EditingState

    // MARK: - Internal

    /// A request for the models a descriptor describes, on behalf of an editing state.
    package init(descriptor: FetchDescriptor<T>, editingState: EditingState) {
        self.descriptor = descriptor
        self.editingState = editingState
    }
}
