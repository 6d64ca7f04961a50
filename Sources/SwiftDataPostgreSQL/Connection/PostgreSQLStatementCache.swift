/// The statements a connection prepared, by their SQL and parameter types, so that a statement run again is parsed
/// and planned by the server once, as a raw client's prepared statements are.
///
/// Bounded: the least recently used statement is forgotten when a new one would exceed `limit`, and deallocated on
/// the server once no transaction is open (`evicted`), so that SQL that varies (a fetch's limit and offset are part
/// of its text) cannot grow the server's memory without end. A statement found again only has its use noted; the
/// search for the least recently used runs when one must go.
struct PostgreSQLStatementCache {
    /// A prepared statement's key: its SQL and the types its parameters were declared with.
    struct Key: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// The most statements kept prepared on one connection.
    static let limit = 128

    /// Each statement's name and when it was last used.
    private var entries: [Key: (name: String, lastUse: Int)] = [:]
    /// Counts uses, to order them.
    private var clock = 0
    private var nextNumber = 0
    /// Names of statements forgotten here and still prepared on the server.
    private(set) var evicted: [String] = []

    /// The name a statement is prepared under, or nil when it is not, noting it as just used.
    mutating func name(of key: Key) -> String? {
        clock += 1
        entries[key]?.lastUse = clock
        return entries[key]?.name
    }

    /// Records a statement about to be prepared and returns its new name; the least recently used statement, when
    /// the cache is full, joins `evicted`.
    mutating func add(_ key: Key) -> String {
        if entries.count >= Self.limit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries.removeValue(forKey: oldest.key)
            evicted.append(oldest.value.name)
        }
        nextNumber += 1
        clock += 1
        let name = "swiftdata_\(nextNumber)"
        entries[key] = (name, clock)
        return name
    }

    /// Forgets a statement: its preparation failed (`deallocating` false), or its plan no longer fits the tables.
    mutating func remove(_ key: Key, deallocating: Bool) {
        if let entry = entries.removeValue(forKey: key), deallocating { evicted.append(entry.name) }
    }

    /// The names in `evicted`, which the caller deallocates now.
    mutating func takeEvicted() -> [String] {
        defer { evicted = [] }
        return evicted
    }

    /// Forgets every statement: the server forgot them (the connection was reset).
    mutating func removeAll() {
        entries = [:]
        evicted = []
    }
}
