extension ModelConfiguration: DataStoreConfiguration {
    /// The store a model configuration describes: SwiftData's own SQLite store.
    public typealias Store = DefaultStore
}
