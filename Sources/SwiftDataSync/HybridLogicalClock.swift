internal import Foundation

/// A replica's hybrid logical clock: stamps local changes with timestamps later than every timestamp the replica
/// stamped or received, close to the wall clock.
///
/// A change made after a replica saw another's change is stamped later than it, whatever the two wall clocks say;
/// concurrent changes are ordered by their wall-clock times.
struct HybridLogicalClock {
    /// The replica the clock stamps for.
    let replica: String
    /// The latest timestamp stamped or received.
    private(set) var latest: SyncTimestamp

    init(replica: String, latest: SyncTimestamp?) {
        self.replica = replica
        self.latest = latest ?? SyncTimestamp(milliseconds: 0, counter: 0, replica: replica)
    }

    /// A timestamp for a change made at `now`, later than every timestamp before it.
    mutating func stamp(at now: Date) -> SyncTimestamp {
        let physical = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let next: SyncTimestamp
        if physical > latest.milliseconds {
            next = SyncTimestamp(milliseconds: physical, counter: 0, replica: replica)
        } else if latest.counter == .max {
            // The counter ran out within one millisecond (a peer sent the largest one): the next millisecond.
            next = SyncTimestamp(milliseconds: latest.milliseconds + 1, counter: 0, replica: replica)
        } else {
            next = SyncTimestamp(milliseconds: latest.milliseconds, counter: latest.counter + 1, replica: replica)
        }
        latest = next
        return next
    }

    /// The first millisecond the 15 digits of a timestamp's text cannot follow with another.
    static let latestMilliseconds: Int64 = 999_999_999_999_000

    /// Takes in a timestamp another replica stamped, so later local changes are stamped after it.
    mutating func receive(_ timestamp: SyncTimestamp) {
        // A time past the year 33,000 is a peer's error, not a clock: taking it in would leave no later time.
        guard timestamp.milliseconds < Self.latestMilliseconds else { return }
        if timestamp > latest {
            latest = SyncTimestamp(milliseconds: timestamp.milliseconds, counter: timestamp.counter, replica: replica)
        }
    }
}
