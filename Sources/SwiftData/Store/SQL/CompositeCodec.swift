/// Stores a `Codable` structure as one column per leaf field (a composite attribute), so that SQL can reach into it.
///
/// The fields are discovered once per type by decoding the type from a probe that records every key it is asked
/// for. A type qualifies when its `init(from:)` reads a keyed container whose values are primitives, raw-value
/// enums that are `CaseIterable`, or nested structures of the same kind. An optional nested structure, an array or
/// any other shape inside is kept as one JSON leaf. Types that read an unkeyed or single-value container at the
/// top (arrays, enums with payloads, custom coding) are not composite and are stored as JSON instead.
package final class CompositeCodec: @unchecked Sendable {
    // @unchecked: immutable after creation but for `knownPaths`, which is locked; the closures capture only
    // metatypes.

    /// One stored field: its key path inside the structure and how its values are stored.
    package struct Leaf {
        package let path: [String]
        package let codec: ValueCodec
        package let isOptional: Bool
        /// Values of the leaf's type the probe found: two different ones when the type has them, else one or
        /// none. They let ``path(of:on:under:)`` build instances.
        package var samples: [Any] = []
        package var name: String { path.joined(separator: ".") }
    }

    package let leaves: [Leaf]
    private let leafNames: Set<String>
    /// The leaves by key, for decoding.
    private let tree: CompositeLeafTree
    /// What `path(of:on:under:)` found for each key path and prefix; nil answers are kept too.
    private let knownPaths = Locked<[PathQuestion: [String]?]>([:])
    private let decodeValue: (any Decoder) throws -> Any
    private let encodeValue: (Any, any Encoder) throws -> Void

    private init<T: Codable>(_: T.Type, leaves: [Leaf]) {
        self.leaves = leaves
        self.leafNames = Set(leaves.map(\.name))
        self.tree = CompositeLeafTree(leaves.map(\.path))
        self.decodeValue = { try T(from: $0) }
        self.encodeValue = { try ($0 as! T).encode(to: $1) }
    }

    /// The composite codec of a type, or nil when the type is not a plain structure of storable fields.
    package static func make<T: Codable>(for type: T.Type) -> CompositeCodec? {
        let probe = CompositeProbe()
        guard (try? T(from: ProbeDecoder(probe: probe, path: []))) != nil, !probe.leaves.isEmpty else { return nil }
        return CompositeCodec(T.self, leaves: probe.leaves)
    }

    // MARK: - Converting Values

    /// The SQL values of a structure's leaves, in `leaves` order.
    package func encode(_ value: Any) throws -> [SQLValue] {
        let storage = FlatStorage()
        try encodeValue(value, FlatEncoder(storage: storage, path: [], leafNames: leafNames))
        return try leaves.map { leaf in
            guard let leafValue = storage.values[leaf.name] else { return .null }
            return try leaf.codec.encode(leafValue)
        }
    }

    /// The leaf path, or the path of a nested structure, that a key path on the structure found at `prefix`
    /// reads; nil when it reads something else (a computed property over several leaves, a JSON leaf).
    ///
    /// Key paths carry no names on Linux, so the answer is found by experiment: decode one instance with a sample
    /// value in every leaf, then one per leaf with that leaf changed, and see which changes move the key path's
    /// value. Every fetch translates its predicate again, so answers are kept.
    package func path<Structure: Decodable>(of keyPath: AnyKeyPath, on _: Structure.Type, under prefix: [String])
        -> [String]?
    {
        let key = PathQuestion(keyPath: keyPath, prefix: prefix)
        if let known = knownPaths.withLock({ $0[key] }) { return known }
        let found = experiment(keyPath, on: Structure.self, under: prefix)
        knownPaths.withLock { $0[key] = found }
        return found
    }

    private struct PathQuestion: Hashable {
        package let keyPath: AnyKeyPath
        package let prefix: [String]
    }

    private func experiment<Structure: Decodable>(_ keyPath: AnyKeyPath, on _: Structure.Type, under prefix: [String])
        -> [String]?
    {
        let candidates = leaves.filter { Array($0.path.prefix(prefix.count)) == prefix }
        var base: [String: Any] = [:]
        for leaf in candidates { base[leaf.name] = leaf.samples.first }
        func read(_ values: [String: Any]) -> Any? {
            let decoder = CompositeDecoder(tree.values(named: values, leaves: leaves), at: prefix)
            guard let instance = try? Structure(from: decoder) else { return nil }
            return instance[keyPath: keyPath]
        }
        guard let reference = read(base) else { return nil }
        // Each instance tried, with the value the key path read from it.
        var variations: [(values: [String: Any], read: Any)] = [(base, reference)]
        var dependent: [Leaf] = []
        let referenceText = fingerprint(reference)
        for leaf in candidates where leaf.samples.count > 1 {
            var changed = base
            changed[leaf.name] = leaf.samples[1]
            guard let value = read(changed) else { return nil }
            if fingerprint(value) != referenceText { dependent.append(leaf) }
            variations.append((changed, value))
        }
        guard let first = dependent.first else { return nil }
        // The leaves the key path depends on: one leaf, or exactly the leaves under one longer prefix.
        var found = first.path
        for leaf in dependent { while Array(leaf.path.prefix(found.count)) != found { found.removeLast() } }
        guard found.count > prefix.count,
            candidates.filter({ Array($0.path.prefix(found.count)) == found }).count == dependent.count
        else { return nil }
        // A computed property can depend on the same leaves yet read something else: the value must be the stored
        // one in every variation.
        let isLeaf = dependent.count == 1 && first.path == found
        for (values, value) in variations {
            let stored: Any?
            if isLeaf {
                stored = values[first.name]
            } else if let nested = type(of: value) as? any Decodable.Type {
                stored = try? nested.init(
                    from: CompositeDecoder(tree.values(named: values, leaves: leaves), at: found))
            } else {
                stored = nil
            }
            guard let stored, fingerprint(stored) == fingerprint(value) else { return nil }
        }
        return found
    }

    /// A text equal exactly when two values are equal, for comparing what a key path reads with what is stored:
    /// leaf types print every bit that tells values apart (a date half a second later is another date), and
    /// structures print their fields. Optionals are unwrapped, since a stored leaf's value is not optional where
    /// the field is.
    private func fingerprint(_ value: Any) -> String {
        switch value {
        case let date as Date: return "date \(date.timeIntervalSinceReferenceDate.bitPattern)"
        case let number as Double: return "double \(number.bitPattern)"
        case let number as Float: return "float \(number.bitPattern)"
        case let data as Data: return "data \(data.map { String($0) }.joined(separator: " "))"
        case let url as URL: return "url \(url.absoluteString)"
        case let uuid as UUID: return "uuid \(uuid.uuidString)"
        case let string as String: return "string \(string.debugDescription)"
        default: break
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return fingerprint(wrapped)
        }
        if mirror.displayStyle == .struct || mirror.displayStyle == .tuple {
            let fields = mirror.children.map { "\($0.label ?? "_"): \(fingerprint($0.value))" }
            return "\(type(of: value))(\(fields.joined(separator: ", ")))"
        }
        return String(reflecting: value)
    }

    /// The structure whose leaves have the given SQL values.
    package func decode(_ values: ArraySlice<SQLValue>) throws -> Any {
        var decoded: [Any?] = []
        decoded.reserveCapacity(leaves.count)
        for (leaf, value) in zip(leaves, values) { decoded.append(value == .null ? nil : try leaf.codec.decode(value)) }
        // Fewer values than leaves (a tombstone kept before the structure gained a field): the rest have none.
        decoded.append(contentsOf: repeatElement(nil, count: leaves.count - decoded.count))
        return try decodeValue(CompositeDecoder(CompositeLeafValues(tree: tree, values: decoded), at: []))
    }
}

/// A structure's shape as the probe discovers it.
private final class CompositeProbe {
    package var leaves: [CompositeCodec.Leaf] = []
    /// Set when a decoder asks a container for its keys rather than for keys it names: what a dictionary does.
    package var listedKeys = false
}

/// Raised by the probe when a type is not a plain structure.
struct NotComposite: Error {}

/// Storable values of a leaf type, the first for the probe to hand back, two different ones where the type has
/// them; nil when the type is not a leaf.
func leafSamples(_ type: Any.Type) -> (ValueCodec, [Any])? {
    switch type {
    case is String.Type: return (.string, ["", "a"])
    case is Bool.Type: return (.bool, [false, true])
    case is Double.Type: return (.double, [0.0, 1.5])
    case is Float.Type: return (.float, [Float(0), Float(1.5)])
    case is Date.Type:
        return (.date, [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 1)])
    case is Data.Type: return (.data, [Data(), Data([1])])
    case is URL.Type: return (.url, [URL(fileURLWithPath: "/"), URL(fileURLWithPath: "/a")])
    case is UUID.Type: return (.uuid, [UUID(), UUID()])
    case is Decimal.Type: return (.decimal, [Decimal(0), Decimal(1)])
    default: break
    }
    if let integer = type as? any FixedWidthInteger.Type, let codec = ValueCodec.make(for: type) {
        return (codec, [integer.zero, integer.one])
    }
    if let enumeration = type as? any (RawRepresentable & CaseIterable).Type, let codec = ValueCodec.make(for: type),
        case .rawRepresentable = codec
    {
        let cases = firstCases(enumeration)
        return cases.isEmpty ? nil : (codec, cases)
    }
    return nil
}

private func firstCases<E: CaseIterable>(_: E.Type) -> [Any] { E.allCases.prefix(2).map { $0 } }

extension FixedWidthInteger {
    fileprivate static var zero: Self { 0 }
    fileprivate static var one: Self { 1 }
}

// MARK: - Probing

private struct ProbeDecoder: Decoder {
    package let probe: CompositeProbe
    package let path: [String]
    package var codingPath: [any CodingKey] { [] }
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: probe, path: path))
    }
    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotComposite() }
    package func singleValueContainer() throws -> any SingleValueDecodingContainer { throw NotComposite() }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    package let probe: CompositeProbe
    package let path: [String]
    package var codingPath: [any CodingKey] { [] }
    package var allKeys: [Key] {
        probe.listedKeys = true
        return []
    }

    package func contains(_ key: Key) -> Bool { true }
    package func decodeNil(forKey key: Key) throws -> Bool { false }

    package func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let leafPath = path + [key.stringValue]
        if let (codec, samples) = leafSamples(T.self) {
            probe.leaves.append(.init(path: leafPath, codec: codec, isOptional: false, samples: samples))
            return samples[0] as! T
        }
        let recorded = probe.leaves.count
        let listedBefore = probe.listedKeys
        probe.listedKeys = false
        let nested = try? T(from: ProbeDecoder(probe: probe, path: leafPath))
        // A dictionary keyed by strings reads a keyed container too, but lists its keys (`allKeys`, which the probe
        // leaves empty) and asks for none: taken for a structure, it would have no column.
        let isDictionary = probe.listedKeys && probe.leaves.count == recorded
        probe.listedKeys = listedBefore
        if let nested, !isDictionary { return nested }
        // Not a nested structure (an array, a set, a dictionary…): keep the field as one JSON leaf.
        probe.leaves.removeSubrange(recorded...)
        guard let codable = T.self as? any Codable.Type, let codec = jsonCodec(codable), let sample = jsonSample(T.self)
        else { throw NotComposite() }
        probe.leaves.append(.init(path: leafPath, codec: codec, isOptional: false, samples: [sample]))
        return sample
    }

    package func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let leafPath = path + [key.stringValue]
        if let (codec, samples) = leafSamples(T.self) {
            probe.leaves.append(.init(path: leafPath, codec: codec, isOptional: true, samples: samples))
        } else if let codable = T.self as? any Codable.Type, let codec = jsonCodec(codable) {
            probe.leaves.append(.init(path: leafPath, codec: codec, isOptional: true))
        } else {
            throw NotComposite()
        }
        return nil
    }

    package func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Wrapper<Bool>.self, key) }
    package func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(Wrapper<String>.self, key) }
    package func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(Wrapper<Double>.self, key) }
    package func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(Wrapper<Float>.self, key) }
    package func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Wrapper<Int>.self, key) }
    package func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(Wrapper<Int8>.self, key) }
    package func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(Wrapper<Int16>.self, key) }
    package func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(Wrapper<Int32>.self, key) }
    package func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(Wrapper<Int64>.self, key) }
    package func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(Wrapper<UInt>.self, key) }
    package func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(Wrapper<UInt8>.self, key) }
    package func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(Wrapper<UInt16>.self, key) }
    package func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(Wrapper<UInt32>.self, key) }
    package func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(Wrapper<UInt64>.self, key) }

    package func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try decodeIfPresent(Wrapper<Bool>.self, key)
    }
    package func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeIfPresent(Wrapper<String>.self, key)
    }
    package func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeIfPresent(Wrapper<Double>.self, key)
    }
    package func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decodeIfPresent(Wrapper<Float>.self, key)
    }
    package func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeIfPresent(Wrapper<Int>.self, key)
    }
    package func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try decodeIfPresent(Wrapper<Int8>.self, key)
    }
    package func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decodeIfPresent(Wrapper<Int16>.self, key)
    }
    package func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decodeIfPresent(Wrapper<Int32>.self, key)
    }
    package func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decodeIfPresent(Wrapper<Int64>.self, key)
    }
    package func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try decodeIfPresent(Wrapper<UInt>.self, key)
    }
    package func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decodeIfPresent(Wrapper<UInt8>.self, key)
    }
    package func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeIfPresent(Wrapper<UInt16>.self, key)
    }
    package func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeIfPresent(Wrapper<UInt32>.self, key)
    }
    package func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeIfPresent(Wrapper<UInt64>.self, key)
    }

    private func decodeIfPresent<T: Decodable>(_: Wrapper<T>.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(T.self, forKey: key)
    }

    /// Routes the primitive overloads through the generic `decode` without recursing into themselves.
    private func decode<T: Decodable>(_: Wrapper<T>.Type, _ key: Key) throws -> T {
        let leafPath = path + [key.stringValue]
        guard let (codec, samples) = leafSamples(T.self) else { throw NotComposite() }
        probe.leaves.append(.init(path: leafPath, codec: codec, isOptional: false, samples: samples))
        return samples[0] as! T
    }

    package func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(probe: probe, path: path + [key.stringValue]))
    }
    package func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw NotComposite() }
    package func superDecoder() throws -> any Decoder { throw NotComposite() }
    package func superDecoder(forKey key: Key) throws -> any Decoder { throw NotComposite() }
}

private enum Wrapper<T> {}

/// A value of a type decoded from the smallest JSON texts, for fields the probe keeps as JSON.
private func jsonSample<T: Decodable>(_: T.Type) -> T? {
    for text in ["[]", "{}", "\"\"", "0", "false"] {
        if let value = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) { return value }
    }
    return nil
}

private func jsonCodec<C: Codable>(_: C.Type) -> ValueCodec? {
    ValueCodec.jsonCodec(for: C.self)
}

// MARK: - Encoding

private final class FlatStorage {
    package var values: [String: Any] = [:]
}

private struct FlatEncoder: Encoder {
    package let storage: FlatStorage
    package let path: [String]
    package let leafNames: Set<String>
    package var codingPath: [any CodingKey] { [] }
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FlatKeyedEncoder<Key>(storage: storage, path: path, leafNames: leafNames))
    }
    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("composite values are keyed")
    }
    package func singleValueContainer() -> any SingleValueEncodingContainer {
        preconditionFailure("composite values are keyed")
    }
}

private struct FlatKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    package let storage: FlatStorage
    package let path: [String]
    package let leafNames: Set<String>
    package var codingPath: [any CodingKey] { [] }

    package mutating func encodeNil(forKey key: Key) throws {}

    package mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let leafPath = path + [key.stringValue]
        let name = leafPath.joined(separator: ".")
        if leafNames.contains(name) {
            storage.values[name] = value
        } else {
            try value.encode(to: FlatEncoder(storage: storage, path: leafPath, leafNames: leafNames))
        }
    }

    package mutating func encode(_ value: Bool, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: String, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: Double, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: Float, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: Int, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: Int8, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: Int16, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: Int32, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: Int64, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: UInt, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: UInt8, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: UInt16, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: UInt32, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }
    package mutating func encode(_ value: UInt64, forKey key: Key) throws {
        storage.values[(path + [key.stringValue]).joined(separator: ".")] = value
    }

    package mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(
            FlatKeyedEncoder<NestedKey>(storage: storage, path: path + [key.stringValue], leafNames: leafNames))
    }
    package mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("composite values are keyed")
    }
    package mutating func superEncoder() -> any Encoder {
        FlatEncoder(storage: storage, path: path, leafNames: leafNames)
    }
    package mutating func superEncoder(forKey key: Key) -> any Encoder {
        FlatEncoder(storage: storage, path: path + [key.stringValue], leafNames: leafNames)
    }
}
