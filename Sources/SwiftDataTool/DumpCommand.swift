internal import Foundation
internal import SwiftData

/// `swiftdata dump STORE ENTITY`: an entity's rows, as a table or as JSON lines.
enum DumpCommand {
    static let help = """
        usage: swiftdata dump STORE ENTITY [--where EXPRESSION] [--sort KEYS] [--limit N] [--json]

        Prints the rows of an entity (a subclass's rows alone, for a subclass), with their primary key (_pk).
        To-one relationships show the related row's key; to-many relationships the related rows' keys.

          --where EXPRESSION  only the rows the expression selects, for example
                              'name == "Rome" && (rating >= 4 || rating == nil)' or 'title contains "café"';
                              see the Command-Line Tool article for the language
          --sort KEYS         comma-separated columns to sort by, '-' before a column for descending order;
                              strings sort as Swift's String does
          --limit N           at most N rows
          --json              one JSON object per row: blobs as {"base64": ...}, external values as
                              {"external": file}
        """

    static func run(_ arguments: ArgumentList, output: inout ToolOutput) throws -> Int32 {
        try arguments.accept(only: ["--where", "--sort", "--limit", "--json"])
        let positional = try arguments.positional("STORE", "ENTITY")
        let store = try StoreValues.open(positional[0])
        let (entity, membership) = try StoreValues.entity(named: positional[1], in: store.schema)
        let columns =
            [StoreFile.primaryKeyColumn] + entity.columns.map(\.name).filter { $0 != StoreFile.primaryKeyColumn }
        let known = Set(columns)

        var conditions = [membership]
        var bindings: [SQLValue] = []
        if let text = arguments.option("--where") {
            let filter = try FilterExpression(text, columns: known)
            conditions.append(filter.sql)
            bindings = filter.bindings
        }
        var sql =
            "SELECT \(columns.map(quotedIdentifier).joined(separator: ", ")) FROM \(quotedIdentifier(entity.name)) "
            + "WHERE \(conditions.joined(separator: " AND "))"
        let sortKeys = try arguments.option("--sort").map { try orderBy($0, columns: known) } ?? []
        sql += " ORDER BY " + (sortKeys + [quotedIdentifier(StoreFile.primaryKeyColumn)]).joined(separator: ", ")
        if let limit = arguments.option("--limit") {
            guard let count = Int64(limit), count >= 0 else {
                throw UsageError("--limit takes a number, not '\(limit)'")
            }
            sql += " LIMIT ?"
            bindings.append(.integer(count))
        }
        let rows = try store.rows(sql, bindings)
        let toMany = (entity.relationships ?? []).filter(\.isToMany)

        if arguments.flag("--json") {
            for row in rows {
                var object: [String: Any] = [:]
                for (name, value) in zip(columns, row) { object[name] = StoreValues.json(value) }
                for relationship in toMany {
                    object[relationship.name] = try relatedKeys(relationship, of: row[0], in: store)
                }
                output.line(try StoreValues.jsonLine(object))
            }
            return 0
        }
        output.line((columns + toMany.map(\.name)).joined(separator: " | "))
        for row in rows {
            var cells = row.map(StoreValues.cell)
            for relationship in toMany {
                cells.append(
                    "["
                        + (try relatedKeys(relationship, of: row[0], in: store)).map(String.init).joined(
                            separator: ", ") + "]")
            }
            output.line(cells.joined(separator: " | "))
        }
        output.line("(\(rows.count) rows)")
        return 0
    }

    /// `ORDER BY` terms for the `--sort` option.
    private static func orderBy(_ text: String, columns: Set<String>) throws -> [String] {
        try text.split(separator: ",").map { key in
            let descending = key.hasPrefix("-")
            let name = String(descending ? key.dropFirst() : key)
            guard columns.contains(name) else {
                throw ToolError("--sort: no column '\(name)' (columns: \(columns.sorted().joined(separator: ", ")))")
            }
            return quotedIdentifier(name) + (descending ? " DESC" : "")
        }
    }

    /// The keys of the rows a to-many relationship of a row links to, in ascending order.
    static func relatedKeys(_ relationship: StoredSchema.Relationship, of key: SQLValue, in store: StoreFile) throws
        -> [Int64]
    {
        let sql: String
        if let column = relationship.inverseForeignKey {
            let table = try StoreValues.entity(named: relationship.destination, in: store.schema).entity.name
            sql =
                "SELECT \(quotedIdentifier(StoreFile.primaryKeyColumn)) FROM \(quotedIdentifier(table)) "
                + "WHERE \(quotedIdentifier(column)) = ? ORDER BY 1"
        } else if let table = relationship.joinTable, let owner = relationship.ownerColumn,
            let target = relationship.targetColumn
        {
            sql =
                "SELECT \(quotedIdentifier(target)) FROM \(quotedIdentifier(table)) WHERE \(quotedIdentifier(owner)) = ? "
                + "ORDER BY 1"
        } else {
            return []
        }
        return try store.rows(sql, [key]).compactMap {
            if case .integer(let key) = $0[0] { return key }
            return nil
        }
    }
}
