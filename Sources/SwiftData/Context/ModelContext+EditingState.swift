internal import Foundation

extension ModelContext {
    // MARK: - Identifying the Context to Stores

    /// The context's identity as data stores see it: an identifier that stays the same for the context's
    /// lifetime, and the context's `author`.
    ///
    /// Every request the context makes of a store carries it. Setting it sets the context's `author` to the new
    /// state's author, and makes the new state's identifier the context's: for custom stores, the former editing
    /// state then ends as it does when the context is released (see ``DataStore/invalidateState(for:)``).
    public var editingState: EditingState {
        get { EditingState(id: editingStateIdentifier, author: author) }
        set {
            if let former = madeEditingStateIdentifier, former != newValue.id {
                endEditingState(EditingState(id: former, author: author))
            }
            editingStateIdentifier = newValue.id
            author = newValue.author
        }
    }

    // MARK: - Internal

    /// Tells every store of the container that the context makes no more requests under an editing state.
    func endEditingState(_ editingState: EditingState) {
        for store in container.stores { store.contextDidEnd(editingState) }
    }
}
