internal import Foundation
internal import SwiftData

/// `swiftdata check STORE`: whether a store is healthy.
enum CheckCommand {
    static let help = """
        usage: swiftdata check STORE

        Checks a store and prints one line per check: SQLite's integrity check; that every table and column the
        store's recorded schema names exists with its type; that no relationship refers to a row that does not
        exist; that every external-storage file a row refers to exists. Files in the external-data folder that no
        row refers to are reported as a warning: a save of another process may be about to commit them.
        Exits with 0 when the store is healthy and 1 when a check failed.
        """

    static func run(_ arguments: ArgumentList, output: inout ToolOutput) throws -> Int32 {
        try arguments.accept(only: [])
        let store = try StoreValues.open(try arguments.positional("STORE")[0])
        var problems: [String] = []
        var warnings: [String] = []

        let integrity = try store.rows("PRAGMA integrity_check").map { StoreValues.cell($0[0]) }
        if integrity != ["ok"] { problems += integrity.map { "integrity: \($0)" } }
        output.line("integrity: \(integrity == ["ok"] ? "ok" : "FAILED")")

        let schemaProblems = try tableProblems(in: store)
        problems += schemaProblems
        output.line("schema: \(schemaProblems.isEmpty ? "ok" : "FAILED")")

        let danglingProblems = try danglingKeys(in: store)
        problems += danglingProblems
        output.line("relationships: \(danglingProblems.isEmpty ? "ok" : "FAILED")")

        let (missing, orphaned) = try externalFiles(of: store)
        problems += missing.map { "external data: \($0) is referred to but missing" }
        warnings += orphaned.map { "external data: \($0) is referred to by no row" }
        output.line("external data: \(missing.isEmpty ? "ok" : "FAILED")")

        for problem in problems { output.line("problem: \(problem)") }
        for warning in warnings { output.line("warning: \(warning)") }
        output.line(problems.isEmpty ? "healthy" : "unhealthy: \(problems.count) problem(s)")
        return problems.isEmpty ? 0 : 1
    }

    /// Tables and columns the recorded schema names that the file lacks, or has with another type.
    private static func tableProblems(in store: StoreFile) throws -> [String] {
        let tables = try store.tableNames()
        var problems: [String] = []
        for entity in store.schema.entities.sorted(by: { $0.name < $1.name }) {
            guard tables.contains(entity.name) else {
                problems.append("schema: table \(entity.name) is missing")
                continue
            }
            var actual: [String: String] = [:]
            for row in try store.rows("SELECT name, type FROM pragma_table_info(?)", [.text(entity.name)]) {
                actual[StoreValues.cell(row[0])] = StoreValues.cell(row[1])
            }
            for column in entity.columns {
                guard let type = actual[column.name] else {
                    problems.append("schema: column \(entity.name).\(column.name) is missing")
                    continue
                }
                // The recorded type may carry the column's collation, which `table_info` leaves out.
                let declared = column.sqlType.components(separatedBy: " COLLATE ")[0]
                if type.uppercased() != declared.uppercased() {
                    problems.append("schema: column \(entity.name).\(column.name) is \(type), not \(column.sqlType)")
                }
            }
            for table in entity.joinTables where !tables.contains(table) {
                problems.append("schema: join table \(table) is missing")
            }
        }
        return problems
    }

    /// Relationship links whose row does not exist.
    private static func danglingKeys(in store: StoreFile) throws -> [String] {
        let primaryKey = quotedIdentifier(StoreFile.primaryKeyColumn)
        var problems: [String] = []
        func count(_ sql: String) throws -> Int64 {
            guard case .integer(let count) = try store.rows(sql).first?.first else { return 0 }
            return count
        }
        for entity in store.schema.entities.sorted(by: { $0.name < $1.name }) {
            for relationship in entity.relationships ?? [] {
                guard let destination = try? StoreValues.entity(named: relationship.destination, in: store.schema)
                else { continue }
                let target = quotedIdentifier(destination.entity.name)
                if let column = relationship.foreignKey {
                    let dangling = try count(
                        "SELECT count(*) FROM \(quotedIdentifier(entity.name)) WHERE \(quotedIdentifier(column)) IS NOT "
                            + "NULL AND \(quotedIdentifier(column)) NOT IN (SELECT \(primaryKey) FROM \(target))")
                    if dangling > 0 {
                        problems.append(
                            "relationships: \(dangling) row(s) of \(entity.name).\(relationship.name) refer to a "
                                + "\(relationship.destination) that does not exist")
                    }
                }
                if let table = relationship.joinTable, let owner = relationship.ownerColumn,
                    let targetColumn = relationship.targetColumn, relationship.ownerColumn == "owner",
                    try store.tableNames().contains(table)
                {
                    let dangling = try count(
                        "SELECT count(*) FROM \(quotedIdentifier(table)) WHERE \(quotedIdentifier(owner)) NOT IN "
                            + "(SELECT \(primaryKey) FROM \(quotedIdentifier(entity.name))) OR "
                            + "\(quotedIdentifier(targetColumn)) NOT IN (SELECT \(primaryKey) FROM \(target))")
                    if dangling > 0 {
                        problems.append(
                            "relationships: \(dangling) link(s) of \(entity.name).\(relationship.name) in \(table) "
                                + "refer to a row that does not exist")
                    }
                }
            }
        }
        return problems
    }

    /// External files rows refer to that are missing, and files no row refers to.
    private static func externalFiles(of store: StoreFile) throws -> (missing: [String], orphaned: [String]) {
        var referenced: Set<String> = []
        for entity in store.schema.entities.sorted(by: { $0.name < $1.name }) {
            for column in entity.columns where column.sqlType.uppercased() != "INTEGER" {
                let rows = try store.rows(
                    "SELECT \(quotedIdentifier(column.name)) FROM \(quotedIdentifier(entity.name)) WHERE "
                        + "typeof(\(quotedIdentifier(column.name))) = 'text'")
                for row in rows {
                    if let name = StoreFile.externalFileName(in: row[0]) { referenced.insert(name) }
                }
            }
        }
        let present = Set((try? FileManager.default.contentsOfDirectory(atPath: store.externalDirectory.path)) ?? [])
        return (referenced.subtracting(present).sorted(), present.subtracting(referenced).sorted())
    }
}
