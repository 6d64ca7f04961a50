internal import Foundation

/// A decoder that holds nothing: each value a type asks it for is the empty value of its kind, so a `Decodable` type
/// decodes from it to a value made of empty fields.
///
/// Every number is 0, every Boolean `false`, every string empty, every optional `nil`, every array, set or
/// dictionary empty; a `UUID` is the all-zero one, a `URL` `about:blank`, a `Decimal` zero (their own decoding
/// refuses empty text). A keyed container lists one key when its key type has a value of all-zero bytes (see
/// `zeroValue(of:)`): the first case of the key enumeration `Codable` generates, so that an enumeration with payloads
/// decodes to its first case. A type whose own `init(from:)` refuses such values does not decode.
///
/// SwiftData uses it for what an attribute whose type has no empty value reads in a model whose row is gone (see
/// `Schema.Entity.Property.substituteValue`).
struct EmptyValueDecoder: Decoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// How deep a value may nest: a type that contains itself (an indirect enumeration whose first case holds
    /// one) would otherwise recurse until the stack overflows.
    static let maximumDepth = 32

    /// The value a type decodes to from no data, or a `DecodingError` when the type refuses it or nests deeper
    /// than `maximumDepth`.
    static func value<T: Decodable>(of type: T.Type, codingPath: [any CodingKey] = []) throws -> T {
        try $depth.withValue(depth + 1) {
            guard depth <= maximumDepth else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "an empty value nests too deep"))
            }
            return try shallowValue(of: type, codingPath: codingPath)
        }
    }

    /// How deep the values being made nest, on this thread or task.
    @TaskLocal private static var depth = 0

    private static func shallowValue<T: Decodable>(of type: T.Type, codingPath: [any CodingKey]) throws -> T {
        switch type {
        case is UUID.Type: return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) as! T
        case is URL.Type: return URL(string: "about:blank")! as! T
        case is Decimal.Type: return Decimal.zero as! T
        default: return try T(from: EmptyValueDecoder(codingPath: codingPath))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer<Key>(codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { UnkeyedContainer(codingPath: codingPath) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(codingPath: codingPath)
    }

    // MARK: - Internal

    /// A keyed container that has every key and holds the empty value under each.
    private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let codingPath: [any CodingKey]

        var allKeys: [Key] { zeroValue(of: Key.self).map { [$0] } ?? [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { true }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { false }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { "" }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { 0 }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { 0 }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { 0 }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { 0 }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { 0 }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { 0 }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { 0 }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { 0 }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { 0 }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { 0 }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try EmptyValueDecoder.value(of: T.self, codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            KeyedDecodingContainer(KeyedContainer<NestedKey>(codingPath: codingPath + [key]))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            UnkeyedContainer(codingPath: codingPath + [key])
        }

        func superDecoder() throws -> any Decoder { EmptyValueDecoder(codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { EmptyValueDecoder(codingPath: codingPath + [key]) }
    }

    /// An unkeyed container with no elements: an array, a set or a dictionary decodes empty.
    private struct UnkeyedContainer: UnkeyedDecodingContainer {
        let codingPath: [any CodingKey]
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }

        private func end<T>(_ type: T.Type) -> DecodingError {
            .valueNotFound(T.self, .init(codingPath: codingPath, debugDescription: "an empty value has no elements"))
        }

        mutating func decodeNil() throws -> Bool { throw end(Never?.self) }
        mutating func decode(_ type: Bool.Type) throws -> Bool { throw end(type) }
        mutating func decode(_ type: String.Type) throws -> String { throw end(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { throw end(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { throw end(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { throw end(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { throw end(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { throw end(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { throw end(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { throw end(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { throw end(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { throw end(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { throw end(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { throw end(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { throw end(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw end(type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw end((any UnkeyedDecodingContainer).self)
        }

        mutating func superDecoder() throws -> any Decoder { throw end((any Decoder).self) }
    }

    /// A single value that is nil, or the empty value of the type asked for.
    private struct SingleValueContainer: SingleValueDecodingContainer {
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { true }
        func decode(_ type: Bool.Type) throws -> Bool { false }
        func decode(_ type: String.Type) throws -> String { "" }
        func decode(_ type: Double.Type) throws -> Double { 0 }
        func decode(_ type: Float.Type) throws -> Float { 0 }
        func decode(_ type: Int.Type) throws -> Int { 0 }
        func decode(_ type: Int8.Type) throws -> Int8 { 0 }
        func decode(_ type: Int16.Type) throws -> Int16 { 0 }
        func decode(_ type: Int32.Type) throws -> Int32 { 0 }
        func decode(_ type: Int64.Type) throws -> Int64 { 0 }
        func decode(_ type: UInt.Type) throws -> UInt { 0 }
        func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
        func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try EmptyValueDecoder.value(of: T.self, codingPath: codingPath)
        }
    }
}
