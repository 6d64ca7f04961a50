internal import Foundation
internal import SwiftData

/// `swiftdata export STORE FILE` and `swiftdata import FILE STORE`: a whole store as one JSON file, and back.
///
/// The export holds the statements that create the store's tables and indexes, every row of every table (the
/// metadata table included, so the schema and version travel along), and the store's external files. Values keep
/// SQLite's storage classes exactly: integers as JSON integers, reals as their shortest exact text, text as JSON
/// strings, blobs in Base64. Importing it makes a store that reads exactly as the original.
enum ExportCommand {
    static let exportHelp = """
        usage: swiftdata export STORE FILE

        Writes the whole store to FILE as JSON: its tables and indexes, every row, and its external files.
        'swiftdata import' makes a new store from it.
        """

    static let importHelp = """
        usage: swiftdata import FILE STORE

        Makes a new store at STORE from a file 'swiftdata export' wrote: the same tables, rows, schema version and
        external files. STORE must not exist yet.
        """

    static func export(_ arguments: ArgumentList, output: inout ToolOutput) throws -> Int32 {
        try arguments.accept(only: [])
        let positional = try arguments.positional("STORE", "FILE")
        let store = try StoreValues.open(positional[0])
        let export = try StoreExport(of: store)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(export).write(to: URL(fileURLWithPath: positional[1]), options: .atomic)
        let rows = export.tables.map(\.rows.count).reduce(0, +)
        output.line(
            "exported \(export.tables.count) tables, \(rows) rows and \(export.externalFiles.count) external files "
                + "to \(positional[1])")
        return 0
    }

    static func `import`(_ arguments: ArgumentList, output: inout ToolOutput) throws -> Int32 {
        try arguments.accept(only: [])
        let positional = try arguments.positional("FILE", "STORE")
        let data = try Data(contentsOf: URL(fileURLWithPath: positional[0]))
        let export: StoreExport
        do {
            export = try JSONDecoder().decode(StoreExport.self, from: data)
        } catch {
            throw ToolError("\(positional[0]) is not a file 'swiftdata export' wrote (\(error))")
        }
        guard export.format == StoreExport.formatName, export.version == 1 else {
            throw ToolError("\(positional[0]) is an export of a format this version cannot read")
        }
        let url = URL(fileURLWithPath: positional[1])
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw ToolError("\(url.path) exists already; import makes a new store")
        }
        do {
            try export.write(to: url)
        } catch {
            // A half-made store is worse than none.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            throw error
        }
        let store = try StoreFile(url: url, writable: false)
        output.line(
            "imported \(export.tables.count) tables and \(export.externalFiles.count) external files into "
                + "\(store.url.path)")
        return 0
    }
}

/// The JSON form of a whole store.
struct StoreExport: Codable {
    static let formatName = "swiftdata-export"

    var format = formatName
    var version = 1
    /// The `CREATE` statements of the store's tables, indexes and triggers, in the order SQLite keeps them.
    var schema: [String]
    var tables: [Table]
    /// The external files, by name, in Base64.
    var externalFiles: [String: String]

    struct Table: Codable {
        var name: String
        var columns: [String]
        var rows: [[Value]]
    }

    /// A value with its SQLite storage class.
    enum Value: Codable, Equatable {
        case value(SQLValue)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .value(.null)
            } else if let integer = try? container.decode(Int64.self) {
                self = .value(.integer(integer))
            } else if let text = try? container.decode(String.self) {
                self = .value(.text(text))
            } else {
                let tagged = try container.decode([String: String].self)
                if let real = tagged["real"], let value = Double(real) {
                    self = .value(.real(value))
                } else if let base64 = tagged["base64"], let bytes = Data(base64Encoded: base64) {
                    self = .value(.blob([UInt8](bytes)))
                } else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a stored value")
                }
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            guard case .value(let value) = self else { return }
            switch value {
            case .null: try container.encodeNil()
            case .integer(let integer): try container.encode(integer)
            // The shortest text that reads back as the same double, tagged so it never reads back as an integer.
            case .real(let real): try container.encode(["real": String(real)])
            case .text(let text): try container.encode(text)
            case .blob(let bytes): try container.encode(["base64": Data(bytes).base64EncodedString()])
            }
        }

        var sqliteValue: SQLValue {
            switch self {
            case .value(let value): value
            }
        }
    }

    /// Reads a whole store.
    init(of store: StoreFile) throws {
        let objects = try store.rows(
            "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
        let virtualTables = objects.filter { StoreValues.cell($0[2]).hasPrefix("CREATE VIRTUAL TABLE") }
            .map { StoreValues.cell($0[1]) }
        // A virtual table makes its own shadow tables: they are neither created nor filled by an import.
        func isShadow(_ name: String) -> Bool { virtualTables.contains { name.hasPrefix($0 + "_") } }
        schema = objects.map { StoreValues.cell($0[2]) }.enumerated().filter { index, _ in
            !isShadow(StoreValues.cell(objects[index][1]))
        }.map(\.element)
        tables = try objects.filter { StoreValues.cell($0[0]) == "table" && !isShadow(StoreValues.cell($0[1])) }.map {
            row in
            let name = StoreValues.cell(row[1])
            let isVirtual = virtualTables.contains(name)
            var columns = try store.rows("SELECT name FROM pragma_table_info(?)", [.text(name)]).map {
                StoreValues.cell($0[0])
            }
            if isVirtual { columns.insert("rowid", at: 0) }
            let rows = try store.rows(
                "SELECT \(columns.map(quotedIdentifier).joined(separator: ", ")) FROM \(quotedIdentifier(name))")
            return Table(name: name, columns: columns, rows: rows.map { $0.map(Value.value) })
        }
        var files: [String: String] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.externalDirectory.path)) ?? []
        for name in names where !name.hasSuffix(".tmp") {
            files[name] = try Data(contentsOf: store.externalDirectory.appendingPathComponent(name))
                .base64EncodedString()
        }
        externalFiles = files
    }

    /// Makes a new store file with the export's tables, rows and external files.
    func write(to url: URL) throws {
        let store = try StoreFile(creatingAt: url)
        try store.inTransaction {
            for statement in schema { try store.execute(statement) }
            for table in tables {
                let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                let sql =
                    "INSERT INTO \(quotedIdentifier(table.name)) "
                    + "(\(table.columns.map(quotedIdentifier).joined(separator: ", "))) VALUES (\(placeholders))"
                for row in table.rows { try store.execute(sql, row.map(\.sqliteValue)) }
            }
        }
        guard !externalFiles.isEmpty else { return }
        try FileManager.default.createDirectory(at: store.externalDirectory, withIntermediateDirectories: true)
        for (name, base64) in externalFiles {
            guard !name.contains("/"), let data = Data(base64Encoded: base64) else {
                throw ToolError("the export's external file '\(name)' cannot be read")
            }
            try data.write(to: store.externalDirectory.appendingPathComponent(name), options: .atomic)
        }
    }
}
