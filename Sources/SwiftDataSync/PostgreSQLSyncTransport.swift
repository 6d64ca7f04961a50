internal import Foundation
internal import SwiftData
internal import SwiftDataPostgreSQL
internal import Synchronization

/// The transport of one account's engine to a PostgreSQL database: records and assets in tables of the
/// `swiftdata_sync` schema, each row owned by the account's role, kept apart by row-level security.
///
/// Sends merge under a lock of the account (an advisory lock held to the commit), so the account's change positions
/// are taken in commit order and a fetch never skips a change that commits after it read a later one.
final class PostgreSQLSyncTransport: SyncTransport, @unchecked Sendable {
    // @unchecked: the connections are used under `lock` only.
    private let lock = Mutex(())
    private let connection: PostgreSQLConnection
    private var listener: PostgreSQLConnection?
    private let url: URL
    private let account: String

    /// Connects as the account's role, and creates the sync tables when they are missing and the role may.
    ///
    /// - Throws: `SyncError.accountMismatch` when the URL names another role; `SyncError.serverNotPrepared` when
    ///   the tables are missing and the role may not create them; `PostgreSQLError` when the server cannot be
    ///   reached.
    init(url: URL, account: String) throws {
        self.url = Self.url(url, connectingAs: account)
        self.account = account
        connection = try PostgreSQLConnection(url: self.url)
        let role = try connection.execute("SELECT current_user::text").text(row: 0, column: 0)
        guard role == account else { throw SyncError.accountMismatch(account: account, role: role ?? "") }
        let exists = try connection.execute("SELECT to_regclass('swiftdata_sync.records') IS NOT NULL")
        if exists.value(row: 0, column: 0) != .integer(1) {
            do {
                try Self.prepare(on: connection)
            } catch {
                throw SyncError.serverNotPrepared(role: account, underlying: error)
            }
        }
    }

    // MARK: - Sending

    func send(_ records: [SyncRecord], assets: [String: Data]) async throws {
        guard !records.isEmpty || !assets.isEmpty else { return }
        try lock.withLock { _ in
            try inTransaction {
                try connection.execute(
                    "SELECT pg_advisory_xact_lock(hashtext('swiftdata_sync'), hashtext(current_user::text))")
                for (name, data) in assets.sorted(by: { $0.key < $1.key }) {
                    try connection.execute(
                        """
                        INSERT INTO swiftdata_sync.assets (asset_name, data) VALUES ($1, $2)
                        ON CONFLICT (account, asset_name) DO NOTHING
                        """, [.text(name), .blob(Array(data))])
                }
                let stored = try storedRecords(named: records.map(\.recordName))
                var changed: [SyncRecord] = []
                var latest: [String: SyncRecord] = [:]
                for record in records {
                    let current = latest[record.recordName] ?? stored[record.recordName]
                    guard let merged = current.map({ $0.merging(record) }) ?? record else { continue }
                    latest[record.recordName] = merged
                    changed.append(merged)
                }
                // A record sent twice in one batch is written once, as merged.
                var written = Set<String>()
                for record in changed.reversed() where written.insert(record.recordName).inserted {
                    try connection.execute(
                        """
                        INSERT INTO swiftdata_sync.records (record_name, entity_name, fields, deletion, change)
                        VALUES ($1, $2, $3::jsonb, $4, nextval('swiftdata_sync.change_order'))
                        ON CONFLICT (account, record_name) DO UPDATE SET fields = EXCLUDED.fields,
                            deletion = EXCLUDED.deletion, change = EXCLUDED.change
                        """,
                        [
                            .text(record.recordName), .text(record.entityName), .text(record.encodedFields),
                            record.deletion.map { .text($0.description) } ?? .null,
                        ])
                }
                if !written.isEmpty { try connection.execute("SELECT pg_notify($1, '')", [.text(channel)]) }
            }
        }
    }

    /// The account's stored records with the given names.
    private func storedRecords(named names: [String]) throws -> [String: SyncRecord] {
        var stored: [String: SyncRecord] = [:]
        for start in stride(from: 0, to: names.count, by: 200) {
            let slice = Array(names[start..<min(start + 200, names.count)])
            let placeholders = slice.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
            let result = try connection.execute(
                """
                SELECT record_name, entity_name, fields::text, deletion FROM swiftdata_sync.records
                WHERE account = current_user::text AND record_name IN (\(placeholders))
                """, slice.map { .text($0) })
            for row in 0..<result.rowCount {
                let record = try Self.record(in: result, row: row)
                stored[record.recordName] = record
            }
        }
        return stored
    }

    // MARK: - Fetching

    func fetchChanges(after position: Int64, limit: Int) async throws -> SyncChanges {
        try lock.withLock { _ in
            let result = try connection.execute(
                """
                SELECT record_name, entity_name, fields::text, deletion, change FROM swiftdata_sync.records
                WHERE account = current_user::text AND change > $1 ORDER BY change LIMIT $2
                """, [.integer(position), .integer(Int64(limit) + 1)])
            let count = min(result.rowCount, limit)
            var records: [SyncRecord] = []
            var last = position
            for row in 0..<count {
                records.append(try Self.record(in: result, row: row))
                last = result.integer(row: row, column: 4) ?? last
            }
            return SyncChanges(records: records, position: last, hasMore: result.rowCount > limit)
        }
    }

    func fetchAssets(named names: Set<String>) async throws -> [String: Data] {
        try lock.withLock { _ in
            var assets: [String: Data] = [:]
            let sorted = names.sorted()
            for start in stride(from: 0, to: sorted.count, by: 200) {
                let slice = Array(sorted[start..<min(start + 200, sorted.count)])
                let placeholders = slice.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
                let result = try connection.execute(
                    """
                    SELECT asset_name, data FROM swiftdata_sync.assets
                    WHERE account = current_user::text AND asset_name IN (\(placeholders))
                    """, slice.map { .text($0) })
                for row in 0..<result.rowCount {
                    guard let name = result.text(row: row, column: 0),
                        case .blob(let bytes) = result.value(row: row, column: 1)
                    else { continue }
                    assets[name] = Data(bytes)
                }
            }
            return assets
        }
    }

    // MARK: - Announcements

    func waitForChanges(timeout: Double) async throws -> Bool {
        let listener = try lock.withLock { _ in
            if let listener = self.listener, listener.isUsable { return listener }
            let listener = try PostgreSQLConnection(url: url)
            try listener.executeScript("LISTEN \(Self.quoted(channel))")
            self.listener = listener
            return listener
        }
        // The wait blocks a thread: one of its own, not one of the tasks' shared pool.
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result { try !listener.notifications(waitingUpTo: timeout).isEmpty })
            }.start()
        }
    }

    func close() async {
        lock.withLock { _ in listener = nil }
    }

    // MARK: - Internal

    /// The channel the account's changes are announced on: named by a hash of the account, so that it fits
    /// PostgreSQL's 63-byte names whatever the account's length.
    private var channel: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in account.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "swiftdata_sync_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func inTransaction(_ body: () throws -> Void) throws {
        try connection.beginTransaction()
        do {
            try body()
            try connection.commitTransaction()
        } catch {
            try? connection.rollBackTransaction()
            throw error
        }
    }

    private static func record(in result: PostgreSQLResult, row: Int) throws -> SyncRecord {
        let name = result.text(row: row, column: 0) ?? ""
        let entity = result.text(row: row, column: 1) ?? ""
        var deletion: SyncTimestamp?
        if let text = result.text(row: row, column: 3) {
            guard let timestamp = SyncTimestamp(text) else {
                throw SyncError.unreadableRecord(name, entity: entity, field: "deletion", underlying: nil)
            }
            deletion = timestamp
        }
        do {
            let fields = deletion == nil ? try SyncRecord.decodeFields(result.text(row: row, column: 2) ?? "{}") : [:]
            return SyncRecord(recordName: name, entityName: entity, fields: fields, deletion: deletion)
        } catch {
            throw SyncError.unreadableRecord(name, entity: entity, field: "fields", underlying: error)
        }
    }

    /// The URL with the account as its user when it names none.
    private static func url(_ url: URL, connectingAs account: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let queryUser = components.queryItems?.first { $0.name == "user" }?.value
        guard components.user == nil, queryUser == nil else { return url }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "user", value: account)]
        return components.url ?? url
    }

    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Creates the schema, tables, policies and grants, under a lock so engines starting together do not collide.
    static func prepare(url: URL) throws {
        try prepare(on: PostgreSQLConnection(url: url))
    }

    private static func prepare(on connection: PostgreSQLConnection) throws {
        do {
            try createTables(on: connection)
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
    }

    private static func createTables(on connection: PostgreSQLConnection) throws {
        try connection.executeScript(
            """
            BEGIN;
            SELECT pg_advisory_xact_lock(hashtext('swiftdata_sync'), 0);
            CREATE SCHEMA IF NOT EXISTS swiftdata_sync;
            CREATE SEQUENCE IF NOT EXISTS swiftdata_sync.change_order;
            CREATE TABLE IF NOT EXISTS swiftdata_sync.records (
                account text NOT NULL DEFAULT current_user,
                record_name text NOT NULL,
                entity_name text NOT NULL,
                fields jsonb NOT NULL,
                deletion text,
                change bigint NOT NULL,
                PRIMARY KEY (account, record_name)
            );
            CREATE INDEX IF NOT EXISTS records_by_change ON swiftdata_sync.records (account, change);
            CREATE TABLE IF NOT EXISTS swiftdata_sync.assets (
                account text NOT NULL DEFAULT current_user,
                asset_name text NOT NULL,
                data bytea NOT NULL,
                PRIMARY KEY (account, asset_name)
            );
            ALTER TABLE swiftdata_sync.records ENABLE ROW LEVEL SECURITY;
            ALTER TABLE swiftdata_sync.records FORCE ROW LEVEL SECURITY;
            ALTER TABLE swiftdata_sync.assets ENABLE ROW LEVEL SECURITY;
            ALTER TABLE swiftdata_sync.assets FORCE ROW LEVEL SECURITY;
            DROP POLICY IF EXISTS own_records ON swiftdata_sync.records;
            CREATE POLICY own_records ON swiftdata_sync.records
                USING (account = current_user) WITH CHECK (account = current_user);
            DROP POLICY IF EXISTS own_assets ON swiftdata_sync.assets;
            CREATE POLICY own_assets ON swiftdata_sync.assets
                USING (account = current_user) WITH CHECK (account = current_user);
            REVOKE ALL ON swiftdata_sync.records, swiftdata_sync.assets FROM PUBLIC;
            GRANT USAGE ON SCHEMA swiftdata_sync TO PUBLIC;
            GRANT SELECT, INSERT, UPDATE ON swiftdata_sync.records, swiftdata_sync.assets TO PUBLIC;
            GRANT USAGE ON SEQUENCE swiftdata_sync.change_order TO PUBLIC;
            COMMIT;
            """)
    }
}
