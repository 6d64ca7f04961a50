/// The statements a connection prepared, by their SQL and parameter types, so that a statement run again is parsed
/// and planned by the server once, as a raw client's prepared statements are.
///
/// Bounded: the least recently used statement is forgotten when a new one would exceed `limit`, and deallocated on
/// the server once no transaction is open (`evicted`), so that SQL that varies (a fetch's limit and offset are part
/// of its text) cannot grow the server's memory without end.
struct PostgreSQLStatementCache {
    /// A prepared statement's key: its SQL and the types its parameters were declared with.
    struct Key: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// The most statements kept prepared on one connection.
    static let limit = 128

    private var names: [Key: String] = [:]
    /// Keys, least recently used first.
    private var order: [Key] = []
    private var nextNumber = 0
    /// Names of statements forgotten here and still prepared on the server.
    private(set) var evicted: [String] = []

    /// The name a statement is prepared under, or nil when it is not, marking it as just used.
    mutating func name(of key: Key) -> String? {
        guard let name = names[key] else { return nil }
        if order.last != key, let position = order.firstIndex(of: key) {
            order.remove(at: position)
            order.append(key)
        }
        return name
    }

    /// Records a statement about to be prepared and returns its new name; the statement it pushes out joins
    /// `evicted`.
    mutating func add(_ key: Key) -> String {
        nextNumber += 1
        let name = "swiftdata_\(nextNumber)"
        if order.count >= Self.limit, let oldest = names.removeValue(forKey: order.removeFirst()) {
            evicted.append(oldest)
        }
        names[key] = name
        order.append(key)
        return name
    }

    /// Forgets a statement: its preparation failed (`deallocating` false), or its plan no longer fits the tables.
    mutating func remove(_ key: Key, deallocating: Bool) {
        if let name = names.removeValue(forKey: key), deallocating { evicted.append(name) }
        order.removeAll { $0 == key }
    }

    /// The names in `evicted`, which the caller deallocates now.
    mutating func takeEvicted() -> [String] {
        defer { evicted = [] }
        return evicted
    }

    /// Forgets every statement: the server forgot them (the connection was reset).
    mutating func removeAll() {
        names = [:]
        order = []
        evicted = []
    }
}
