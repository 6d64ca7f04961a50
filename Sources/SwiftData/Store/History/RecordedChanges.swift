/// The changes of one recorded transaction, grouped as a save writes them: runs of changes of one kind to one
/// entity (and, for updates, the same properties), kept in a compact binary form.
///
/// A save of many models records one group per entity and kind rather than one row per model, so recording
/// history costs a save one row and a few bytes per model.
package struct RecordedChanges: Sendable, Equatable {
    /// What happened to the models of a group.
    package enum Kind: UInt8, Sendable {
        case insert = 0
        case update = 1
        case delete = 2
    }

    /// Changes of one kind to models of one entity, in order.
    package struct Group: Sendable, Equatable {
        package let kind: Kind
        package let entityName: String
        /// For updates: the names of the properties the save changed.
        package let properties: [String]
        /// The rows' primary keys.
        package var keys: [Int64]
        /// For deletes: the names of the attributes whose values the store kept, and for each row (in the order of
        /// `keys`) each attribute's stored columns.
        package let preservedNames: [String]
        package var preservedValues: [[[SQLValue]]]
    }

    private(set) var groups: [Group] = []

    /// The number of changes.
    package var count: Int { groups.reduce(0) { $0 + $1.keys.count } }
    package var isEmpty: Bool { groups.isEmpty }

    package init() {}

    /// Adds a deletion with the stored columns of the row's preserved attributes, in a new group unless it
    /// continues the last one.
    package mutating func appendDelete(entityName: String, key: Int64, preserved: [(String, [SQLValue])]) {
        let names = preserved.map(\.0)
        if let last = groups.indices.last, groups[last].kind == .delete, groups[last].entityName == entityName,
            groups[last].preservedNames == names
        {
            // In place: a copy of the group would copy its keys on every change.
            groups[last].keys.append(key)
            groups[last].preservedValues.append(preserved.map(\.1))
            return
        }
        groups.append(
            Group(
                kind: .delete, entityName: entityName, properties: [], keys: [key], preservedNames: names,
                preservedValues: [preserved.map(\.1)]))
    }

    /// Adds the inserts of many rows of one entity at once.
    package mutating func appendInserts(entityName: String, keys: [Int64]) {
        guard !keys.isEmpty else { return }
        groups.append(
            Group(
                kind: .insert, entityName: entityName, properties: [], keys: keys, preservedNames: [],
                preservedValues: []))
    }

    /// Adds the updates of many rows of one entity that changed the same properties at once.
    package mutating func appendUpdates(entityName: String, properties: [String], keys: [Int64]) {
        guard !keys.isEmpty else { return }
        groups.append(
            Group(
                kind: .update, entityName: entityName, properties: properties, keys: keys, preservedNames: [],
                preservedValues: []))
    }

    // MARK: - Binary Form

    /// The version of the binary form this code writes; a store refuses a form it does not know.
    private static let version: UInt8 = 1

    /// The changes in binary form.
    package func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.append(Self.version)
        writer.varint(UInt64(groups.count))
        for group in groups {
            writer.bytes.append(group.kind.rawValue)
            writer.string(group.entityName)
            writer.varint(UInt64(group.properties.count))
            for property in group.properties { writer.string(property) }
            writer.varint(UInt64(group.keys.count))
            var previous: Int64 = 0
            for key in group.keys {
                writer.signed(key &- previous)
                previous = key
            }
            guard group.kind == .delete else { continue }
            writer.varint(UInt64(group.preservedNames.count))
            for name in group.preservedNames { writer.string(name) }
            for row in group.preservedValues {
                for columns in row {
                    writer.varint(UInt64(columns.count))
                    for value in columns { writer.value(value) }
                }
            }
        }
        return writer.bytes
    }

    /// Reads changes that `encoded()` wrote.
    ///
    /// - Throws: `RecordedChanges.Malformed` when the bytes are not such changes.
    package init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader(bytes: bytes)
        guard try reader.byte() == Self.version else { throw Malformed() }
        let groupCount = try reader.count()
        for _ in 0..<groupCount {
            guard let kind = Kind(rawValue: try reader.byte()) else { throw Malformed() }
            let entityName = try reader.string()
            let properties = try (0..<reader.count()).map { _ in try reader.string() }
            var keys: [Int64] = []
            let keyCount = try reader.count()
            keys.reserveCapacity(keyCount)
            var previous: Int64 = 0
            for _ in 0..<keyCount {
                previous = previous &+ (try reader.signed())
                keys.append(previous)
            }
            var names: [String] = []
            var values: [[[SQLValue]]] = []
            if kind == .delete {
                names = try (0..<reader.count()).map { _ in try reader.string() }
                for _ in 0..<keyCount {
                    values.append(
                        try names.map { _ in try (0..<reader.count()).map { _ in try reader.value() } })
                }
            }
            groups.append(
                Group(
                    kind: kind, entityName: entityName, properties: properties, keys: keys, preservedNames: names,
                    preservedValues: values))
        }
    }

    /// Bytes that are not recorded changes.
    package struct Malformed: Error {
        package init() {}
    }
}

/// Appends the parts of the binary form.
private struct ByteWriter {
    package var bytes: [UInt8] = []

    package mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A signed integer, zigzag-encoded so that small negative numbers stay short.
    package mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    package mutating func string(_ text: String) {
        let utf8 = Array(text.utf8)
        varint(UInt64(utf8.count))
        bytes += utf8
    }

    package mutating func value(_ value: SQLValue) {
        switch value {
        case .null: bytes.append(0)
        case .integer(let number):
            bytes.append(1)
            signed(number)
        case .real(let number):
            bytes.append(2)
            varint(number.bitPattern)
        case .text(let text):
            bytes.append(3)
            string(text)
        case .blob(let blob):
            bytes.append(4)
            varint(UInt64(blob.count))
            bytes += blob
        }
    }
}

/// Reads the parts of the binary form, throwing at its end or on a part out of range.
private struct ByteReader {
    package let bytes: [UInt8]
    package var position = 0

    package mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw RecordedChanges.Malformed() }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw RecordedChanges.Malformed() }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A count of items that follow: at most the bytes left, so a damaged count cannot make a huge allocation.
    package mutating func count() throws -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count - position) else { throw RecordedChanges.Malformed() }
        return Int(value)
    }

    package mutating func signed() throws -> Int64 {
        let value = try varint()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    package mutating func string() throws -> String {
        let count = try count()
        defer { position += count }
        return String(decoding: bytes[position..<position + count], as: UTF8.self)
    }

    package mutating func value() throws -> SQLValue {
        switch try byte() {
        case 0: return .null
        case 1: return .integer(try signed())
        case 2: return .real(Double(bitPattern: try varint()))
        case 3: return .text(try string())
        case 4:
            let count = try count()
            defer { position += count }
            return .blob(Array(bytes[position..<position + count]))
        default: throw RecordedChanges.Malformed()
        }
    }
}
