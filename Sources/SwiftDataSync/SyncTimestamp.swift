internal import Foundation

/// The time of one change in a hybrid logical clock: the order in which sync decides which of two writes of one
/// field is the later.
///
/// A timestamp is the replica's wall-clock time in milliseconds, raised to the latest time the replica has seen from
/// any other replica, a counter that orders changes within one millisecond, and the replica that made the change,
/// which breaks ties. Timestamps compare in that order; every replica compares them the same way, so every replica
/// keeps the same one of two concurrent writes.
///
/// `description` is a fixed-width text whose lexical order is the timestamps' order, the form the server keeps.
public struct SyncTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970, as the replica's clock read them, or later.
    public let milliseconds: Int64
    /// Orders the changes a replica stamps within one millisecond.
    public let counter: UInt32
    /// The replica that stamped the change.
    public let replica: String

    /// Creates a timestamp.
    public init(milliseconds: Int64, counter: UInt32, replica: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.replica = replica
    }

    /// Reads a timestamp from its `description`; nil when the text is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 2)
        guard parts.count == 3, parts[0].count == 15, parts[1].count == 10, let milliseconds = Int64(parts[0]),
            let counter = UInt32(parts[1])
        else { return nil }
        self.init(milliseconds: milliseconds, counter: counter, replica: String(parts[2]))
    }

    /// The timestamp as fixed-width text, ordered as the timestamps are.
    public var description: String {
        let time = String(milliseconds)
        let count = String(counter)
        return String(repeating: "0", count: max(0, 15 - time.count)) + time + "-"
            + String(repeating: "0", count: max(0, 10 - count.count)) + count + "-" + replica
    }

    /// True when `lhs` is the earlier change.
    public static func < (lhs: SyncTimestamp, rhs: SyncTimestamp) -> Bool {
        (lhs.milliseconds, lhs.counter, lhs.replica) < (rhs.milliseconds, rhs.counter, rhs.replica)
    }
}

extension SyncTimestamp: Codable {
    /// Decodes the text form.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the text is not a timestamp.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let timestamp = SyncTimestamp(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not a sync timestamp")
        }
        self = timestamp
    }

    /// Encodes the text form.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
