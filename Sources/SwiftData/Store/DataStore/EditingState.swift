internal import Foundation

/// The identity of one model context, as a data store sees it.
///
/// Each request SwiftData makes of a store carries the editing state of the context that made it, so that a store
/// can keep state per context and record who made a change. A store is told when a context starts using it
/// (``DataStore/initializeState(for:)``) and when the context ends (``DataStore/invalidateState(for:)``).
public struct EditingState: Identifiable, Sendable {
    /// The identifier of the context, the same for every request the context makes.
    public let id: UUID
    /// The author of the context's changes, as the context's `author` gives it.
    public var author: String?

    // MARK: - Internal

    /// An editing state with an identifier and an author; a new identifier by default.
    package init(id: UUID = UUID(), author: String? = nil) {
        self.id = id
        self.author = author
    }
}
