/// The statements a connection prepared, by their SQL and parameter types, so that a statement run again is parsed
/// and planned by the server once, as a raw client's prepared statements are.
///
/// Bounded: the least recently used statement is forgotten (and deallocated on the server) when a new one would
/// exceed `limit`, so that SQL that varies (a fetch's limit and offset are part of its text) cannot grow the
/// server's memory without end.
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

    /// The name a statement is prepared under, or nil when it is not, marking it as just used.
    mutating func name(of key: Key) -> String? {
        guard let name = names[key] else { return nil }
        if order.last != key, let position = order.firstIndex(of: key) {
            order.remove(at: position)
            order.append(key)
        }
        return name
    }

    /// Records a statement about to be prepared and returns its new name, with the name of the statement it pushes
    /// out, which the caller deallocates.
    mutating func add(_ key: Key) -> (name: String, evicted: String?) {
        nextNumber += 1
        let name = "swiftdata_\(nextNumber)"
        var evicted: String?
        if order.count >= Self.limit {
            let oldest = order.removeFirst()
            evicted = names.removeValue(forKey: oldest)
        }
        names[key] = name
        order.append(key)
        return (name, evicted)
    }

    /// Forgets a statement (its preparation failed, or its plan no longer fits the tables).
    mutating func remove(_ key: Key) {
        names.removeValue(forKey: key)
        order.removeAll { $0 == key }
    }

    /// Forgets every statement: the server forgot them (the connection was reset).
    mutating func removeAll() {
        names = [:]
        order = []
    }
}
