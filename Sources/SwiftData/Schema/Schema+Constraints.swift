extension Schema {
    /// The indexes of a model type, as `#Index` declares them.
    public final class Index<T: PersistentModel>: @unchecked Sendable {
        // @unchecked: key paths are immutable.

        /// The kind of one index and its key paths.
        public enum Types<P> {
            /// A B-tree index over the key paths.
            case binary([PartialKeyPath<P>])
            /// A spatial index; on Linux a B-tree index over the key paths.
            case rtree([PartialKeyPath<P>])
        }

        /// The declared indexes.
        public let indices: [Types<T>]

        /// Creates typed indexes.
        public init(_ indices: Types<T>...) { self.indices = indices }

        /// Creates binary indexes, one per group of key paths.
        public init(_ binaryIndices: [PartialKeyPath<T>]...) { self.indices = binaryIndices.map { .binary($0) } }
    }

    /// The uniqueness constraints of a model type, as `#Unique` declares them.
    public final class Unique<T: PersistentModel>: @unchecked Sendable {
        // @unchecked: key paths are immutable.

        /// The groups of key paths whose values must be unique together.
        public let constraints: [[PartialKeyPath<T>]]

        /// Creates uniqueness constraints.
        public init(_ constraints: [PartialKeyPath<T>]...) { self.constraints = constraints }
    }
}
