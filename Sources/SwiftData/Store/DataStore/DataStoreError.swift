/// An error a custom data store throws to ask SwiftData to do part of a request itself, or to refuse it.
public enum DataStoreError: Error, Hashable, Sendable {
    /// The fetch's predicate cannot be used.
    case invalidPredicate
    /// The store cannot evaluate the fetch's predicate: SwiftData should fetch every model of the type and filter
    /// them in memory.
    case preferInMemoryFilter
    /// The store cannot sort by the fetch's sort descriptors: SwiftData should sort the fetched models in memory.
    case preferInMemorySort
    /// The store does not support what was asked of it.
    case unsupportedFeature
}
