/// Converts one attribute's Swift values to and from SQL values (`SQLValue`), the same way for every SQL store.
///
/// A save encodes each value of each row, so the mapping asks no dialect; a store maps these values to its column
/// types (`SQLDialect.columnType(for:)` of `columnKind`). The mapping (documented in DefiningModels.md):
/// - `String`, `URL` (absolute string), `UUID` (uppercase string), `Decimal` (its exact decimal string) → TEXT;
/// - `Bool` (0/1) and every fixed-width integer → INTEGER (`UInt64`/`UInt` above `Int64.max` keep their bit pattern);
/// - `Double`, `Float`, `Date` (seconds since 2001-01-01, the exact `Double` `Date` holds) → REAL;
/// - `Data` → BLOB;
/// - `RawRepresentable` types whose raw value is one of the above → their raw value;
/// - any other `Codable` value (structs, enums with payloads, arrays, sets, dictionaries) → TEXT holding JSON with
///   sorted keys.
/// An `Optional` stores `nil` as NULL.
package indirect enum ValueCodec: @unchecked Sendable {
    // @unchecked: the closures capture only metatypes and are never mutated.
    case string
    case bool
    case integer(encode: (Any) -> Int64, decode: (Int64) -> Any)
    case double
    case float
    case date
    case data
    case url
    case uuid
    case decimal
    case optional(ValueCodec, wrapping: (Any) -> Any, none: Any)
    case rawRepresentable(ValueCodec, toRaw: (Any) -> Any, fromRaw: (Any) -> Any?)
    case json(encode: (Any) throws -> String, decode: (String) throws -> Any)
    case composite(CompositeCodec)
    case transformed(TransformerBox)

    /// The codec for a type, or nil when SwiftData cannot store it. With `storingEncodedForm` (the `.codable`
    /// option), a `Codable` type that is neither a column type nor a raw-value enum is stored as JSON instead of
    /// one column per field.
    package static func make(for type: any Any.Type, storingEncodedForm: Bool = false) -> ValueCodec? {
        if let optional = type as? any OptionalValue.Type {
            guard let wrapped = make(for: optional.wrappedType, storingEncodedForm: storingEncodedForm) else {
                return nil
            }
            return .optional(wrapped, wrapping: optional.wrapping, none: optional.noneValue)
        }
        if let primitive = primitive(for: type) { return primitive }
        if let raw = type as? any RawRepresentable.Type, let codec = rawRepresentable(raw) { return codec }
        if let codable = type as? any Codable.Type {
            return storingEncodedForm ? json(codable) : composite(codable) ?? json(codable)
        }
        return nil
    }

    private static func composite<C: Codable>(_: C.Type) -> ValueCodec? {
        CompositeCodec.make(for: C.self).map { .composite($0) }
    }

    /// The JSON codec of a `Codable` type, for values that have no column shape of their own.
    package static func jsonCodec<C: Codable>(for type: C.Type) -> ValueCodec { json(C.self) }

    private static func primitive(for type: any Any.Type) -> ValueCodec? {
        switch type {
        case is String.Type: .string
        case is Bool.Type: .bool
        case is Int.Type: integer(Int.self)
        case is Int8.Type: integer(Int8.self)
        case is Int16.Type: integer(Int16.self)
        case is Int32.Type: integer(Int32.self)
        case is Int64.Type: integer(Int64.self)
        case is UInt.Type: integer(UInt.self)
        case is UInt8.Type: integer(UInt8.self)
        case is UInt16.Type: integer(UInt16.self)
        case is UInt32.Type: integer(UInt32.self)
        case is UInt64.Type: integer(UInt64.self)
        case is Double.Type: .double
        case is Float.Type: .float
        case is Date.Type: .date
        case is Data.Type: .data
        case is URL.Type: .url
        case is UUID.Type: .uuid
        case is Decimal.Type: .decimal
        default: nil
        }
    }

    private static func integer<I: FixedWidthInteger>(_: I.Type) -> ValueCodec {
        .integer(
            encode: { Int64(truncatingIfNeeded: exactCast($0, to: I.self)) }, decode: { I(truncatingIfNeeded: $0) })
    }

    private static func rawRepresentable<R: RawRepresentable>(_: R.Type) -> ValueCodec? {
        guard let raw = primitive(for: R.RawValue.self) else { return nil }
        return .rawRepresentable(raw, toRaw: { ($0 as! R).rawValue }, fromRaw: { R(rawValue: $0 as! R.RawValue) })
    }

    private static func json<C: Codable>(_: C.Type) -> ValueCodec {
        .json(
            encode: { value in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return String(decoding: try encoder.encode(value as! C), as: UTF8.self)
            },
            decode: { text in try JSONDecoder().decode(C.self, from: Data(text.utf8)) }
        )
    }

    /// What the column of a value of this codec holds, which says how the store declares it
    /// (`SQLDialect.columnType(for:)`). A composite's own column is its presence flag, 1 or NULL.
    package var columnKind: SQLColumnKind {
        switch self {
        case .string: .string
        case .url, .uuid, .decimal, .json: .text
        case .composite: .integer
        case .transformed: .blob
        case .bool: .boolean
        case .integer: .integer
        case .double, .float: .real
        case .date: .date
        case .data: .blob
        case .optional(let wrapped, _, _): wrapped.columnKind
        case .rawRepresentable(let raw, _, _): raw.columnKind
        }
    }

    /// True when the column may hold NULL.
    package var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The leaf attributes of a composite codec, or nil for every other codec.
    package var compositeLeaves: [Schema.Attribute]? {
        guard case .composite(let composite) = unwrappedCodec else { return nil }
        return composite.leaves.map { Schema.Attribute(name: $0.name, valueType: Any.self) }
    }

    // MARK: - Columns

    /// One SQL column of an attribute: a name suffix (empty for the attribute's own column), what it holds and
    /// whether it may hold NULL.
    package struct ColumnShape {
        package let suffix: String
        package let kind: SQLColumnKind
        package let isNullable: Bool
    }

    /// The columns an attribute occupies. A composite attribute has one per leaf (`name.leaf`), and an optional
    /// composite also a presence column (`name`, 1 or NULL) so that `nil` and a value with all-nil fields differ.
    package var columnShapes: [ColumnShape] {
        switch self {
        case .composite(let composite):
            return composite.leaves.map {
                ColumnShape(suffix: "." + $0.name, kind: $0.codec.columnKind, isNullable: $0.isOptional)
            }
        case .optional(.composite(let composite), _, _):
            return [ColumnShape(suffix: "", kind: .integer, isNullable: true)]
                + composite.leaves.map {
                    ColumnShape(suffix: "." + $0.name, kind: $0.codec.columnKind, isNullable: true)
                }
        default:
            return [ColumnShape(suffix: "", kind: columnKind, isNullable: isOptional)]
        }
    }

    /// The SQL values of an attribute's columns, in `columnShapes` order.
    package func encodeColumns(_ value: Any) throws -> [SQLValue] {
        switch self {
        case .composite(let composite):
            return try composite.encode(value)
        case .optional(.composite(let composite), _, _):
            guard let inner = (value as? any OptionalValue)?.wrappedAny ?? (value is any OptionalValue ? nil : value)
            else {
                return Array(repeating: .null, count: composite.leaves.count + 1)
            }
            return [.integer(1)] + (try composite.encode(inner))
        default:
            return [try encode(value)]
        }
    }

    /// The Swift value of an attribute from its columns' SQL values.
    package func decodeColumns(_ values: ArraySlice<SQLValue>) throws -> Any {
        switch self {
        case .composite(let composite):
            return try composite.decode(values)
        case .optional(.composite(let composite), let wrapping, let none):
            guard let presence = values.first, presence != .null else { return none }
            return wrapping(try composite.decode(values.dropFirst()))
        default:
            return try decode(values[values.startIndex])
        }
    }

    /// True when decoding runs no code of the app: a standard library or Foundation type, or an optional of one.
    /// Raw-representable, Codable, composite and transformed values run initializers or transformers an app may
    /// have written.
    package var decodesWithoutAppCode: Bool {
        switch self {
        case .string, .bool, .integer, .double, .float, .date, .data, .url, .uuid, .decimal: true
        case .optional(let wrapped, _, _): wrapped.decodesWithoutAppCode
        case .rawRepresentable, .json, .composite, .transformed: false
        }
    }

    /// The value of a property stored in one column: `decodeColumns` of that column, without making an array of
    /// it unless the property is a composite of one field.
    package func decodeColumn(_ value: SQLValue) throws -> Any {
        switch self {
        case .composite, .optional(.composite, _, _): try decodeColumns([value][...])
        default: try decode(value)
        }
    }

    // MARK: - Converting Values

    /// The SQL value of a slot that holds exactly this codec's type, for the common types, read where the slot
    /// keeps it; nil for anything else, which `encode(_:)` handles.
    ///
    /// A save encodes every attribute of every row it writes: copying each slot out as an `Any` and casting it
    /// back cost a retain, a release and a call to the type's value witnesses per value.
    package func encodedValue(inSlot index: Int, of slots: ModelSlots) -> SQLValue? {
        switch self {
        case .string: slots.inlineValue(at: index, as: String.self).map { .text($0) }
        case .integer: slots.inlineValue(at: index, as: Int.self).map { .integer(Int64($0)) }
        case .double: slots.inlineValue(at: index, as: Double.self).map { .real($0) }
        case .bool: slots.inlineValue(at: index, as: Bool.self).map(Self.stored)
        case .date: slots.inlineValue(at: index, as: Date.self).map(Self.stored)
        default: nil
        }
    }

    /// How a `Bool` is stored: an integer, 1 or 0.
    private static func stored(_ flag: Bool) -> SQLValue { .integer(flag ? 1 : 0) }

    /// How a `Date` is stored: seconds since the reference date.
    private static func stored(_ date: Date) -> SQLValue { .real(date.timeIntervalSinceReferenceDate) }

    /// The SQL value for a Swift value of this codec's type.
    package func encode(_ value: Any) throws -> SQLValue {
        switch self {
        case .string: return .text(exactCast(value, to: String.self))
        case .bool: return Self.stored(exactCast(value, to: Bool.self))
        case .integer(let encode, _): return .integer(encode(value))
        case .double: return .real(exactCast(value, to: Double.self))
        case .float: return .real(Double(exactCast(value, to: Float.self)))
        case .date: return Self.stored(exactCast(value, to: Date.self))
        case .data: return .blob([UInt8](exactCast(value, to: Data.self)))
        case .url: return .text(exactCast(value, to: URL.self).absoluteString)
        case .uuid: return .text(exactCast(value, to: UUID.self).uuidString)
        case .decimal: return .text(exactCast(value, to: Decimal.self).description)
        case .optional(let wrapped, _, _):
            if let optional = value as? any OptionalValue {
                guard let inner = optional.wrappedAny else { return .null }
                return try wrapped.encode(inner)
            }
            return try wrapped.encode(value)
        case .rawRepresentable(let raw, let toRaw, _): return try raw.encode(toRaw(value))
        case .json(let encode, _): return .text(try encode(value))
        case .composite: throw DecodingFailure(expected: "a single column", found: .null)
        case .transformed(let box):
            switch box.transformer.transformedValue(value) {
            case let data as Data: return .blob([UInt8](data))
            case let text as String: return .text(text)
            case nil: return .null
            case let other?:
                throw DecodingFailure(
                    expected: "Data from \(type(of: box.transformer))", found: .text("\(type(of: other))"))
            }
        }
    }

    /// The Swift value for an SQL value, or a `DecodingFailure` that says what was found.
    package func decode(_ value: SQLValue) throws -> Any {
        switch (self, value) {
        case (.optional(_, _, let none), .null): return none
        case (.optional(let wrapped, let wrapping, _), _): return wrapping(try wrapped.decode(value))
        case (.string, .text(let text)): return text
        case (.bool, .integer(let number)): return number != 0
        case (.integer(_, let decode), .integer(let number)): return decode(number)
        case (.double, .real(let number)): return number
        case (.double, .integer(let number)): return Double(number)
        case (.float, .real(let number)): return Float(number)
        case (.float, .integer(let number)): return Float(number)
        case (.date, .real(let seconds)): return Date(timeIntervalSinceReferenceDate: seconds)
        case (.date, .integer(let seconds)): return Date(timeIntervalSinceReferenceDate: Double(seconds))
        case (.data, .blob(let bytes)): return Data(bytes)
        case (.url, .text(let text)):
            guard let url = URL(string: text) else { throw DecodingFailure(expected: "URL", found: value) }
            return url
        case (.uuid, .text(let text)):
            guard let uuid = UUID(uuidString: text) else { throw DecodingFailure(expected: "UUID", found: value) }
            return uuid
        case (.decimal, .text(let text)):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw DecodingFailure(expected: "Decimal", found: value)
            }
            return decimal
        case (.rawRepresentable(let raw, _, let fromRaw), _):
            guard let decoded = fromRaw(try raw.decode(value)) else {
                throw DecodingFailure(expected: "a known raw value", found: value)
            }
            return decoded
        case (.json(_, let decode), .text(let text)): return try decode(text)
        case (.transformed(let box), .blob(let bytes)):
            guard let value = box.transformer.reverseTransformedValue(Data(bytes)) else {
                throw DecodingFailure(expected: "a value from \(type(of: box.transformer))", found: value)
            }
            return value
        case (.transformed(let box), .text(let text)):
            guard let value = box.transformer.reverseTransformedValue(text) else {
                throw DecodingFailure(expected: "a value from \(type(of: box.transformer))", found: value)
            }
            return value
        default: throw DecodingFailure(expected: "\(columnKind)", found: value)
        }
    }
}

/// A stored value that does not fit the attribute's type (a store edited by hand, or a schema mismatch).
package struct DecodingFailure: Error, CustomStringConvertible {
    package let expected: String
    package let found: SQLValue
    package var description: String { "expected \(expected), found \(found)" }
}

/// A value transformer held by a codec.
package struct TransformerBox: @unchecked Sendable {
    // @unchecked: transformers are expected to be stateless, as Foundation's are; one instance per attribute.
    package let transformer: ValueTransformer
}
