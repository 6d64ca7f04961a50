/// The leaves of a composite attribute as a tree of their keys: a decoder finds what a key names (a leaf, or a
/// nested structure) with one lookup of the key, rather than by building and hashing the key's dotted path.
struct CompositeLeafTree {
    struct Node {
        /// The nodes of the keys under this one.
        var children: [String: Int] = [:]
        /// The position of the leaf this node is, in the codec's `leaves`; nil for a nested structure.
        var leaf: Int?
        /// The positions of the leaves at or under this node.
        var leavesUnder: [Int] = []
    }

    /// The nodes: `absent` first, then the root.
    private(set) var nodes: [Node] = [Node(), Node()]

    /// A node with nothing under it, for keys the structure did not record.
    static let absent = 0
    static let root = 1

    /// The tree of leaves at the given key paths, numbered in order.
    init(_ paths: [[String]]) {
        for (position, path) in paths.enumerated() {
            var node = Self.root
            nodes[node].leavesUnder.append(position)
            for key in path {
                if let child = nodes[node].children[key] {
                    node = child
                } else {
                    nodes.append(Node())
                    nodes[node].children[key] = nodes.count - 1
                    node = nodes.count - 1
                }
                nodes[node].leavesUnder.append(position)
            }
            nodes[node].leaf = position
        }
    }

    /// The node at a key path from the root; `absent` when the structure has no such path.
    func node(at path: [String]) -> Int {
        var node = Self.root
        for key in path {
            guard let child = nodes[node].children[key] else { return Self.absent }
            node = child
        }
        return node
    }

    /// The values of leaves given by name (a leaf's path joined by dots), in leaf order.
    func values(named values: [String: Any], leaves: [CompositeCodec.Leaf]) -> CompositeLeafValues {
        CompositeLeafValues(tree: self, values: leaves.map { values[$0.name] })
    }
}

/// The decoded values of a composite's leaves, nil for a leaf whose columns are NULL, with the tree that finds
/// them; shared by every container of one decoding.
final class CompositeLeafValues {
    let tree: CompositeLeafTree
    let values: [Any?]

    init(tree: CompositeLeafTree, values: [Any?]) {
        self.tree = tree
        self.values = values
    }

    /// True when the node is a leaf holding a value, or a structure with a value in some leaf under it.
    func holdsValue(_ node: Int) -> Bool {
        let node = tree.nodes[node]
        if let leaf = node.leaf { return values[leaf] != nil }
        return node.leavesUnder.contains { values[$0] != nil }
    }
}

/// Decodes a structure, or the nested structure at a node of it, from its leaves' values.
struct CompositeDecoder: Decoder {
    let storage: CompositeLeafValues
    let node: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ storage: CompositeLeafValues, node: Int) {
        self.storage = storage
        self.node = node
    }

    init(_ storage: CompositeLeafValues, at path: [String]) {
        self.init(storage, node: storage.tree.node(at: path))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CompositeKeyedDecoder<Key>(storage: storage, node: node))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotComposite() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw NotComposite() }
}

/// `decodeIfPresent` is the protocol's own: `contains` and `decodeNil` tell whether a key has a value.
private struct CompositeKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let storage: CompositeLeafValues
    let node: Int
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        storage.tree.nodes[node].children.compactMap { key, child in
            storage.holdsValue(child) ? Key(stringValue: key) : nil
        }
    }

    private func child(_ key: Key) -> Int {
        storage.tree.nodes[node].children[key.stringValue] ?? CompositeLeafTree.absent
    }

    func contains(_ key: Key) -> Bool { storage.holdsValue(child(key)) }
    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = child(key)
        if let leaf = storage.tree.nodes[child].leaf { return try leafValue(leaf, key) }
        if child == CompositeLeafTree.absent, leafSamples(T.self) != nil {
            throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "no stored value"))
        }
        return try T(from: CompositeDecoder(storage, node: child))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeLeaf(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeLeaf(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeLeaf(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeLeaf(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeLeaf(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeLeaf(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeLeaf(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeLeaf(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeLeaf(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeLeaf(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeLeaf(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeLeaf(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeLeaf(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeLeaf(key) }
    private func decodeLeaf<T>(_ key: Key) throws -> T {
        guard let leaf = storage.tree.nodes[child(key)].leaf else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "no stored value"))
        }
        return try leafValue(leaf, key)
    }

    /// The value of a leaf as `T`: a leaf whose columns are NULL has none.
    private func leafValue<T>(_ leaf: Int, _ key: Key) throws -> T {
        guard let value = storage.values[leaf] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "its columns are NULL"))
        }
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(T.self, .init(codingPath: [key], debugDescription: "stored \(value)"))
        }
        return typed
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(CompositeKeyedDecoder<NestedKey>(storage: storage, node: child(key)))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw NotComposite() }
    func superDecoder() throws -> any Decoder { CompositeDecoder(storage, node: node) }
    func superDecoder(forKey key: Key) throws -> any Decoder { CompositeDecoder(storage, node: child(key)) }
}
