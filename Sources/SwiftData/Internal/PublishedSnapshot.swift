internal import Synchronization

/// A dictionary that many threads read without a lock and few threads add to: readers load an immutable snapshot
/// through an atomic pointer; writers copy it, add, and publish the copy under a lock.
///
/// Superseded snapshots are never freed, since a reader may still hold one. Use it only for tables that stop
/// growing early (entities by model type, slots by key path object), where that costs a few copies in all.
final class PublishedSnapshot<Key: Hashable, Value>: @unchecked Sendable {
    // @unchecked: snapshots are immutable once published; `published` is atomic and `writers` serialises writers.
    private final class Snapshot {
        let table: [Key: Value]
        /// The entries as an array, for small tables, which a scan searches faster than hashing the key.
        let entries: [(key: Key, value: Value)]?
        init(_ table: [Key: Value]) {
            self.table = table
            self.entries = table.count <= Self.scanLimit ? Array(table) : nil
        }
        static var scanLimit: Int { 32 }
    }

    private let published = Atomic<UInt>(0)
    private let publications = Atomic<Int>(0)
    /// How many snapshots `update` has published, for tests that check a table stops growing.
    var publicationCount: Int { publications.load(ordering: .relaxed) }
    private let writers = Locked<[Key: Value]>([:])

    /// The value for a key, without taking a lock.
    func value(for key: Key) -> Value? {
        let bits = published.load(ordering: .acquiring)
        guard bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        let snapshot = Unmanaged<Snapshot>.fromOpaque(pointer).takeUnretainedValue()
        if let entries = snapshot.entries {
            for entry in entries where entry.key == key { return entry.value }
            return nil
        }
        return snapshot.table[key]
    }

    /// Runs `body` on the writable table under the lock, then publishes a snapshot of it.
    func update<Result>(_ body: (inout [Key: Value]) -> Result) -> Result {
        writers.withLock { table in
            let result = body(&table)
            let snapshot = Unmanaged.passRetained(Snapshot(table)).toOpaque()
            published.store(UInt(bitPattern: snapshot), ordering: .releasing)
            publications.add(1, ordering: .relaxed)
            return result
        }
    }

    /// Every value of the writable table.
    var allValues: [Value] { writers.withLock { Array($0.values) } }
}
