internal import Foundation
internal import SwiftData

/// `swiftdata inspect STORE`: the store's version, entities with their attributes, relationships, constraints and
/// row counts, and the size of its files.
enum InspectCommand {
    static let help = """
        usage: swiftdata inspect STORE

        Describes a store: its identifier and schema version; each entity with its row count, attributes (type and
        options), relationships (destination, cardinality, inverse, delete rule, where the links are stored),
        uniqueness constraints and indexes; the size of the store's files and of its external data; how many
        history transactions it keeps.
        Stores written before attribute and relationship details were recorded show their columns instead.
        """

    static func run(_ arguments: ArgumentList, output: inout ToolOutput) throws -> Int32 {
        try arguments.accept(only: [])
        let store = try StoreValues.open(try arguments.positional("STORE")[0])
        let schema = store.schema
        output.line("store: \(store.url.path)")
        output.line("identifier: \(store.metadata["storeIdentifier"] ?? "unknown")")
        output.line("schema version: \(store.metadata["schemaVersion"] ?? schema.version)")
        output.line("files: \(try files(of: store))")
        output.line("history: \(try history(of: store))")
        for entity in schema.entities.sorted(by: { $0.name < $1.name }) {
            output.line()
            try describe(entity, in: store, output: &output)
        }
        return 0
    }

    /// How many transactions the store's history holds, and their tokens.
    private static func history(of store: StoreFile) throws -> String {
        guard try store.tableNames().contains(StoreFile.historyTable) else { return "none recorded" }
        let row = try store.rows(
            "SELECT count(*), min(\"token\"), max(\"token\") FROM \(quotedIdentifier(StoreFile.historyTable))")
        guard case .integer(let count) = row.first?[0], count > 0, case .integer(let first) = row[0][1],
            case .integer(let last) = row[0][2]
        else { return "no transactions" }
        return "\(count) transaction\(count == 1 ? "" : "s"), tokens \(first)–\(last)"
    }

    private static func describe(_ entity: StoredSchema.Entity, in store: StoreFile, output: inout ToolOutput) throws {
        output.line("entity \(entity.name): \(try StoreValues.count(entity.name, in: store)) rows")
        if let attributes = entity.attributes {
            output.line("  attributes:")
            for attribute in attributes {
                let options = attribute.options.isEmpty ? "" : " [\(attribute.options.joined(separator: ", "))]"
                output.line("    \(attribute.name): \(attribute.type)\(options)")
            }
        } else {
            output.line("  columns:")
            for column in entity.columns where column.name != StoreFile.primaryKeyColumn {
                output.line("    \(column.name): \(column.sqlType)\(column.isNullable ? "" : " not null")")
            }
        }
        if let relationships = entity.relationships, !relationships.isEmpty {
            output.line("  relationships:")
            for relationship in relationships {
                let cardinality = relationship.isToMany ? "to-many" : "to-one"
                let inverse = relationship.inverse.map { "inverse \($0)" } ?? "no inverse"
                output.line(
                    "    \(relationship.name): \(cardinality) \(relationship.destination), \(inverse), "
                        + "delete rule \(relationship.deleteRule), \(storage(of: relationship, in: entity))")
            }
        }
        for constraint in entity.uniquenessConstraints {
            output.line("  unique: (\(constraint.joined(separator: ", ")))")
        }
        for index in entity.indices {
            output.line("  index: (\(index.joined(separator: ", ")))")
        }
        if let subentities = entity.subentities {
            for (name, parent) in subentities.sorted(by: { $0.key < $1.key }) {
                let rows = try StoreValues.count(
                    entity.name, in: store, where: try StoreValues.entity(named: name, in: store.schema).rows)
                output.line("  subclass \(name) of \(parent): \(rows) rows")
            }
        }
    }

    private static func storage(of relationship: StoredSchema.Relationship, in entity: StoredSchema.Entity) -> String {
        if let column = relationship.foreignKey { return "stored in \(entity.name).\(column)" }
        if let column = relationship.inverseForeignKey { return "stored in \(relationship.destination).\(column)" }
        if let table = relationship.joinTable { return "stored in join table \(table)" }
        return "stored nowhere"
    }

    /// The sizes of the store file, its write-ahead log and its external data.
    private static func files(of store: StoreFile) throws -> String {
        let manager = FileManager.default
        func size(_ path: String) -> Int? {
            (try? manager.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        }
        var parts = ["\(store.url.lastPathComponent) \(size(store.url.path) ?? 0) bytes"]
        if let wal = size(store.url.path + "-wal") { parts.append("\(store.url.lastPathComponent)-wal \(wal) bytes") }
        let names = (try? manager.contentsOfDirectory(atPath: store.externalDirectory.path)) ?? []
        let external = names.compactMap { size(store.externalDirectory.appendingPathComponent($0).path) }
        parts.append("external data \(external.count) files \(external.reduce(0, +)) bytes")
        return parts.joined(separator: ", ")
    }
}
