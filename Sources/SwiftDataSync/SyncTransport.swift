public import Foundation

/// The connection of one account's sync engine to the server that keeps the account's records.
///
/// The engine sends the records its replica changed and fetches the records other replicas changed, in the order the
/// server took them. `SyncServer.postgreSQL(url:)` makes the transport of a PostgreSQL server; a transport of your
/// own can stand between the engine and another one (a test that cuts the network wraps the real one).
///
/// A transport is used by one engine at a time, from one task at a time, except `waitForChanges(timeout:)`, which
/// runs while the other calls do.
public protocol SyncTransport: Sendable {
    /// Writes records over the account's records on the server, with the assets they name, all or none: each
    /// field keeps the later of its values, and a deletion wins (see ``SyncRecord/merging(_:)``). Returns once the
    /// server has them durably.
    ///
    /// - Parameters:
    ///   - records: The records, in the order their changes were made.
    ///   - assets: Values of external-storage attributes, by the asset names the records' fields hold.
    /// - Throws: An error when the server cannot be reached or refused the records; then none of them was taken,
    ///   or all were (an answer lost on the way), and sending them again changes nothing more.
    func send(_ records: [SyncRecord], assets: [String: Data]) async throws

    /// Up to `limit` of the account's records that changed after a position in the server's change order, in that
    /// order, and the position of the last one.
    ///
    /// - Parameter position: The position a previous fetch returned, or 0 for every record.
    /// - Throws: An error when the server cannot be reached.
    func fetchChanges(after position: Int64, limit: Int) async throws -> SyncChanges

    /// The assets with the given names that the account's records hold; a name the server has no asset of is left
    /// out.
    ///
    /// - Throws: An error when the server cannot be reached.
    func fetchAssets(named names: Set<String>) async throws -> [String: Data]

    /// Waits until the server announces that the account's records changed, or until `timeout` seconds passed;
    /// true when an announcement came.
    ///
    /// - Throws: An error when the server cannot be reached.
    func waitForChanges(timeout: Double) async throws -> Bool

    /// Closes the transport's connections.
    func close() async
}

/// Records a fetch returned and where the next fetch starts.
public struct SyncChanges: Sendable {
    /// The records, in the order the server took their latest changes.
    public var records: [SyncRecord]
    /// The position of the last record, to pass to the next fetch.
    public var position: Int64
    /// True when more records changed after `position`.
    public var hasMore: Bool

    /// Creates a batch of changes.
    public init(records: [SyncRecord], position: Int64, hasMore: Bool) {
        self.records = records
        self.position = position
        self.hasMore = hasMore
    }
}
