extension PersistentIdentifier {
    /// A temporary key (before the first save), an integer primary key (the SQLite store's row), or any other
    /// primary key a store chose (see `identifier(for:entityName:primaryKey:)`).
    ///
    /// A key takes nine bytes, an integer or a reference and its case, and copying one is a test of its case:
    /// identifiers are copied on every fetch and save, and a key that held an encoded key's two strings inline took
    /// 33 bytes and a call to copy or release, whatever the key was.
    ///
    /// New cases go last: `Comparable` orders the cases as they are declared, and `Codable` names them.
    enum Key: Hashable, Comparable, Sendable {
        case temporary(UInt64)
        case permanent(Int64)
        /// A primary key that is not an integer (see `EncodedKey`).
        case encoded(EncodedKey)
    }

    /// A primary key that is not an integer: the name of its type and its canonical JSON encoding (sorted keys),
    /// so that equal keys of one type are equal here, keys of different types differ, and the key survives an
    /// encode/decode round trip of the identifier.
    final class EncodedKey: Hashable, Comparable, Sendable {
        let type: String
        let value: String

        init(type: String, value: String) {
            self.type = type
            self.value = value
        }

        static func == (lhs: EncodedKey, rhs: EncodedKey) -> Bool {
            lhs === rhs || (lhs.type == rhs.type && lhs.value == rhs.value)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(value)
        }

        /// Orders by type name, then encoding.
        static func < (lhs: EncodedKey, rhs: EncodedKey) -> Bool {
            (lhs.type, lhs.value) < (rhs.type, rhs.value)
        }
    }
}

// MARK: - Codable

/// The form the key had when the compiler wrote its coding (an enumeration with `type` and `value` in the encoded
/// case): `{"permanent":{"_0":7}}`, `{"temporary":{"_0":1}}`, `{"encoded":{"type":"String","value":"\"a\""}}`.
extension PersistentIdentifier.Key: Codable {
    private enum CodingKeys: String, CodingKey {
        case temporary, permanent, encoded
    }

    private enum NumberCodingKeys: String, CodingKey {
        case _0
    }

    private enum EncodedCodingKeys: String, CodingKey {
        case type, value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let only = container.allKeys.first else {
            throw DecodingError.typeMismatch(
                Self.self,
                DecodingError.Context(
                    codingPath: container.codingPath, debugDescription: "Invalid number of keys found, expected one."))
        }
        switch only {
        case .temporary:
            let nested = try container.nestedContainer(keyedBy: NumberCodingKeys.self, forKey: .temporary)
            self = .temporary(try nested.decode(UInt64.self, forKey: ._0))
        case .permanent:
            let nested = try container.nestedContainer(keyedBy: NumberCodingKeys.self, forKey: .permanent)
            self = .permanent(try nested.decode(Int64.self, forKey: ._0))
        case .encoded:
            let nested = try container.nestedContainer(keyedBy: EncodedCodingKeys.self, forKey: .encoded)
            self = .encoded(
                PersistentIdentifier.EncodedKey(
                    type: try nested.decode(String.self, forKey: .type),
                    value: try nested.decode(String.self, forKey: .value)))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .temporary(let number):
            var nested = container.nestedContainer(keyedBy: NumberCodingKeys.self, forKey: .temporary)
            try nested.encode(number, forKey: ._0)
        case .permanent(let row):
            var nested = container.nestedContainer(keyedBy: NumberCodingKeys.self, forKey: .permanent)
            try nested.encode(row, forKey: ._0)
        case .encoded(let key):
            var nested = container.nestedContainer(keyedBy: EncodedCodingKeys.self, forKey: .encoded)
            try nested.encode(key.type, forKey: .type)
            try nested.encode(key.value, forKey: .value)
        }
    }
}
