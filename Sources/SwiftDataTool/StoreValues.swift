internal import Foundation
internal import SwiftData

/// Opening stores and showing their values, shared by the commands.
enum StoreValues {
    /// Opens the store at a path given on the command line.
    static func open(_ path: String, writable: Bool = false) throws -> StoreFile {
        try StoreFile(url: URL(fileURLWithPath: path), writable: writable)
    }

    /// A value as a table cell: text as it is, blobs by size, external values by file.
    static func cell(_ value: SQLValue) -> String {
        if let file = StoreFile.externalFileName(in: value) { return "<external \(file)>" }
        switch value {
        case .null: return "nil"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return value
        case .blob(let bytes): return "<\(bytes.count) bytes>"
        }
    }

    /// A value as JSON: numbers, strings and null as themselves; blobs as `{"base64": …}` and external values as
    /// `{"external": file}`.
    static func json(_ value: SQLValue) -> Any {
        if let file = StoreFile.externalFileName(in: value) { return ["external": file] }
        switch value {
        case .null: return NSNull()
        case .integer(let value): return NSNumber(value: value)
        case .real(let value): return value.isFinite ? NSNumber(value: value) : String(value)
        case .text(let value): return value
        case .blob(let bytes): return ["base64": Data(bytes).base64EncodedString()]
        }
    }

    /// One JSON object on one line, keys in order.
    static func jsonLine(_ object: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// The number of rows of a table.
    static func count(_ table: String, in store: StoreFile, where condition: String = "1") throws -> Int64 {
        guard
            case .integer(let count) = try store.rows(
                "SELECT count(*) FROM \(quotedIdentifier(table)) WHERE \(condition)"
            ).first?.first
        else { return 0 }
        return count
    }

    /// The entity a name on the command line means, and the condition that selects its rows in its table (a
    /// subclass's rows share its hierarchy's table, told apart by their class column).
    static func entity(named name: String, in schema: StoredSchema) throws -> (
        entity: StoredSchema.Entity, rows: String
    ) {
        if let entity = schema.entity(named: name) { return (entity, "1") }
        for root in schema.entities {
            guard let parents = root.subentities, parents[name] != nil else { continue }
            var names: Set<String> = [name]
            var grew = true
            while grew {
                let more = parents.filter { names.contains($0.value) }.map(\.key)
                grew = !Set(more).isSubset(of: names)
                names.formUnion(more)
            }
            let literals = names.sorted().map(sqlStringLiteral)
            return (root, "\(quotedIdentifier(StoreFile.typeColumn)) IN (\(literals.joined(separator: ", ")))")
        }
        let known = schema.entities.flatMap { [$0.name] + ($0.subentities.map { Array($0.keys) } ?? []) }.sorted()
        throw ToolError("the store has no entity '\(name)' (it has \(known.joined(separator: ", ")))")
    }
}
