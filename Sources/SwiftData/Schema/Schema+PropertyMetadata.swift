extension Schema {
    /// What `@Model` records about one persisted property: its name, key path, declared default value and the
    /// options given with `@Attribute` or `@Relationship`.
    public struct PropertyMetadata: @unchecked Sendable {
        // @unchecked: the key path and metadata are immutable; the default value is only read.
        /// The property's name.
        public let name: String
        /// The key path of the property on its model.
        public let keypath: AnyKeyPath
        /// The value written in the property's declaration, or nil.
        public let defaultValue: Any?
        /// The `Schema.Attribute` or `Schema.Relationship` given by the property's macro, or nil.
        public let metadata: (any SchemaProperty)?

        /// Creates the metadata of one property.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any?, metadata: (any SchemaProperty)?) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }
}
