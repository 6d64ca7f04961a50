internal import Foundation
internal import SwiftData

/// What a replica's engine remembers between runs, in a SQLite file beside the store: the record name of each
/// synced model, when each field was last written and whether the server has that write yet, records held until
/// the records they point to arrive, and where history and the server's change order were read up to.
///
/// Every change the engine makes here is one transaction, so the file always agrees with itself; it agrees with
/// the store as described in `SyncEngine` (history is read again from the last token this file holds).
final class SyncMetadata {
    /// A synced model as the metadata knows it.
    struct Record {
        let name: String
        let entityName: String
        /// The model's identifier in the local store; nil once deleted.
        let identifier: PersistentIdentifier?
        let deletion: SyncTimestamp?
        let isDeletionPending: Bool
    }

    /// The last write of one field.
    struct FieldState {
        let timestamp: SyncTimestamp
        let isPending: Bool
        /// For a membership field: true while the target is a member.
        let isMember: Bool?
        /// For a to-one field: the record name of the model it pointed to when last written.
        let target: String?
    }

    private let connection: SQLiteConnection
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// Opens (creating when missing) the metadata file at a path, or one in memory for `:memory:`.
    ///
    /// - Throws: What SQLite throws when the file cannot be opened or written.
    init(path: String) throws {
        connection = try SQLiteConnection(path: path, readOnly: false, log: SQLiteStatementLog())
        try connection.execute(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE IF NOT EXISTS sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS sync_records (
                record_name TEXT PRIMARY KEY,
                entity_name TEXT NOT NULL,
                identifier TEXT UNIQUE,
                deletion TEXT,
                deletion_pending INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX IF NOT EXISTS sync_records_pending ON sync_records (deletion_pending)
                WHERE deletion_pending = 1;
            CREATE TABLE IF NOT EXISTS sync_fields (
                record_name TEXT NOT NULL,
                field TEXT NOT NULL,
                timestamp TEXT NOT NULL,
                pending INTEGER NOT NULL,
                member INTEGER,
                target TEXT,
                PRIMARY KEY (record_name, field)
            );
            CREATE INDEX IF NOT EXISTS sync_fields_pending ON sync_fields (record_name) WHERE pending = 1;
            CREATE TABLE IF NOT EXISTS sync_held (record_name TEXT PRIMARY KEY, record TEXT NOT NULL);
            """)
    }

    /// Runs `body` in one transaction.
    func inTransaction<T>(_ body: () throws -> T) throws -> T { try connection.inTransaction(body) }

    // MARK: - State

    func state(_ key: String) throws -> String? {
        guard
            case .text(let value)? = try connection.statement("SELECT value FROM sync_state WHERE key = ?1")
                .rows([.text(key)]).first?.first
        else { return nil }
        return value
    }

    func setState(_ key: String, _ value: String) throws {
        try connection.statement(
            "INSERT INTO sync_state (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2"
        ).execute([.text(key), .text(value)])
    }

    // MARK: - Records

    func record(named name: String) throws -> Record? {
        try connection.statement(
            """
            SELECT record_name, entity_name, identifier, deletion, deletion_pending FROM sync_records
            WHERE record_name = ?1
            """
        ).rows([.text(name)]).first.map(record)
    }

    func recordName(of identifier: PersistentIdentifier) throws -> String? {
        guard
            case .text(let name)? = try connection.statement(
                "SELECT record_name FROM sync_records WHERE identifier = ?1"
            ).rows([.text(key(of: identifier))]).first?.first
        else { return nil }
        return name
    }

    func insertRecord(named name: String, entityName: String, identifier: PersistentIdentifier) throws {
        try connection.statement(
            "INSERT INTO sync_records (record_name, entity_name, identifier) VALUES (?1, ?2, ?3)"
        ).execute([.text(name), .text(entityName), .text(key(of: identifier))])
    }

    /// Records a deletion: the model's identifier is forgotten and its fields with it.
    func markDeleted(_ name: String, entityName: String, at timestamp: SyncTimestamp, isPending: Bool) throws {
        try connection.statement(
            """
            INSERT INTO sync_records (record_name, entity_name, identifier, deletion, deletion_pending)
            VALUES (?1, ?2, NULL, ?3, ?4)
            ON CONFLICT (record_name) DO UPDATE SET identifier = NULL, deletion = ?3, deletion_pending = ?4
            """
        ).execute([.text(name), .text(entityName), .text(timestamp.description), .integer(isPending ? 1 : 0)])
        try connection.statement("DELETE FROM sync_fields WHERE record_name = ?1").execute([.text(name)])
    }

    // MARK: - Fields

    func fields(of name: String) throws -> [String: FieldState] {
        var fields: [String: FieldState] = [:]
        for row in try connection.statement(
            "SELECT field, timestamp, pending, member, target FROM sync_fields WHERE record_name = ?1"
        ).rows([.text(name)]) {
            guard case .text(let field) = row[0], case .text(let text) = row[1],
                let timestamp = SyncTimestamp(text)
            else { continue }
            var member: Bool?
            if case .integer(let value) = row[3] { member = value != 0 }
            var target: String?
            if case .text(let name) = row[4] { target = name }
            fields[field] = FieldState(
                timestamp: timestamp, isPending: row[2] == .integer(1), isMember: member, target: target)
        }
        return fields
    }

    func setField(
        _ field: String, of name: String, at timestamp: SyncTimestamp, isPending: Bool, isMember: Bool? = nil,
        target: String? = nil
    ) throws {
        try connection.statement(
            """
            INSERT INTO sync_fields (record_name, field, timestamp, pending, member, target)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (record_name, field) DO UPDATE SET timestamp = ?3, pending = ?4, member = ?5, target = ?6
            """
        ).execute([
            .text(name), .text(field), .text(timestamp.description), .integer(isPending ? 1 : 0),
            isMember.map { .integer($0 ? 1 : 0) } ?? .null, target.map { .text($0) } ?? .null,
        ])
    }

    // MARK: - Pending Changes

    /// Names of records with a write the server does not have yet, up to a limit.
    func pendingRecordNames(limit: Int) throws -> [String] {
        try connection.statement(
            """
            SELECT record_name FROM sync_records WHERE deletion_pending = 1
            UNION SELECT DISTINCT record_name FROM sync_fields WHERE pending = 1
            LIMIT ?1
            """
        ).rows([.integer(Int64(limit))]).compactMap {
            if case .text(let name) = $0[0] { return name }
            return nil
        }
    }

    /// Marks a field's write as on the server, unless a later write replaced it since.
    func clearPending(_ field: String, of name: String, at timestamp: SyncTimestamp) throws {
        try connection.statement(
            "UPDATE sync_fields SET pending = 0 WHERE record_name = ?1 AND field = ?2 AND timestamp = ?3"
        ).execute([.text(name), .text(field), .text(timestamp.description)])
    }

    func clearPendingDeletion(of name: String) throws {
        try connection.statement("UPDATE sync_records SET deletion_pending = 0 WHERE record_name = ?1")
            .execute([.text(name)])
    }

    // MARK: - Held Records

    func heldRecords() throws -> [SyncRecord] {
        try connection.statement("SELECT record FROM sync_held ORDER BY rowid").rows().compactMap { row in
            guard case .text(let text) = row[0] else { return nil }
            return try JSONDecoder().decode(SyncRecord.self, from: Data(text.utf8))
        }
    }

    func hold(_ record: SyncRecord) throws {
        let text = String(decoding: try encoder.encode(record), as: UTF8.self)
        try connection.statement(
            """
            INSERT INTO sync_held (record_name, record) VALUES (?1, ?2)
            ON CONFLICT (record_name) DO UPDATE SET record = ?2
            """
        ).execute([.text(record.recordName), .text(text)])
    }

    func release(_ name: String) throws {
        try connection.statement("DELETE FROM sync_held WHERE record_name = ?1").execute([.text(name)])
    }

    // MARK: - Internal

    private func record(_ row: [SQLValue]) -> Record {
        var identifier: PersistentIdentifier?
        if case .text(let text) = row[2] {
            identifier = try? JSONDecoder().decode(PersistentIdentifier.self, from: Data(text.utf8))
        }
        var deletion: SyncTimestamp?
        if case .text(let text) = row[3] { deletion = SyncTimestamp(text) }
        var name = ""
        var entityName = ""
        if case .text(let text) = row[0] { name = text }
        if case .text(let text) = row[1] { entityName = text }
        return Record(
            name: name, entityName: entityName, identifier: identifier, deletion: deletion,
            isDeletionPending: row[4] == .integer(1))
    }

    private func key(of identifier: PersistentIdentifier) -> String {
        // Encoding an identifier cannot fail.
        (try? String(decoding: encoder.encode(identifier), as: UTF8.self)) ?? ""
    }
}
