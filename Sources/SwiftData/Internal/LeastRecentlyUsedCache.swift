/// A bounded map that forgets its least recently used entry when a new one would exceed its limit: the prepared
/// statement caches of the SQL stores' connections, so that SQL that varies cannot grow a connection's memory (or a
/// server's) without end.
///
/// A lookup only notes its use with a counter; the least recently used entry is searched for when one must go.
package struct LeastRecentlyUsedCache<Key: Hashable, Value> {
    /// The most entries kept.
    package let limit: Int
    private var entries: [Key: (value: Value, lastUse: Int)] = [:]
    /// Counts uses, to order them.
    private var clock = 0

    package init(limit: Int) {
        self.limit = limit
    }

    /// How many entries the cache holds.
    package var count: Int { entries.count }

    /// The value for a key, noting it as just used; nil when the cache has none.
    package mutating func value(for key: Key) -> Value? {
        // One hash of the key: a statement's key is its SQL, and a save asks for its statements once per row.
        guard let index = entries.index(forKey: key) else { return nil }
        clock += 1
        entries.values[index].lastUse = clock
        return entries.values[index].value
    }

    /// Adds a value for a key, and returns the entry it pushed out, if the cache was full.
    @discardableResult
    package mutating func insert(_ value: Value, for key: Key) -> (key: Key, value: Value)? {
        var evicted: (key: Key, value: Value)?
        if entries[key] == nil, entries.count >= limit,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            entries.removeValue(forKey: oldest.key)
            evicted = (oldest.key, oldest.value.value)
        }
        clock += 1
        entries[key] = (value, clock)
        return evicted
    }

    /// Forgets a key's entry, and returns its value.
    @discardableResult
    package mutating func removeValue(for key: Key) -> Value? { entries.removeValue(forKey: key)?.value }

    /// Forgets every entry.
    package mutating func removeAll() { entries = [:] }
}
