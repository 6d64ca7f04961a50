internal import Foundation

extension ModelContext {
    // MARK: - Identifying the Context to Stores

    /// The context's identity as data stores see it: an identifier that stays the same for the context's
    /// lifetime, and the context's `author`.
    ///
    /// Setting it sets the context's `author` to the new state's author, and makes the new state's identifier the
    /// context's.
    public var editingState: EditingState {
        get { EditingState(id: editingStateIdentifier, author: author) }
        set {
            editingStateIdentifier = newValue.id
            author = newValue.author
        }
    }
}
