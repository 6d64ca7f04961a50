/// Keys a statement selects rows by, in the form that SQLite handles fastest.
///
/// Saves delete rows by key, and relationship loads read rows by their owners' keys. A list of keys is bound as
/// JSON and matched with `IN (SELECT value FROM json_each(?))`, which parses the list and builds a temporary index
/// of it; deleting 50,000 rows that way took three times as long as a `DELETE` with a range condition. Keys that
/// form a few runs of consecutive values (rows deleted by a predicate on an ordered attribute, models fetched or
/// inserted together) are matched with `BETWEEN` instead.
struct SQLiteKeySet {
    /// Runs of consecutive keys, ascending, or nil when there are too many to match one at a time.
    let runs: [ClosedRange<Int64>]?
    /// The keys as one JSON array, bound as a single parameter of `IN (SELECT value FROM json_each(?))`, so a
    /// statement takes any number of keys without hitting SQLite's parameter limit; nil when they are matched by
    /// runs.
    let list: SQLValue?

    /// At most this many runs are matched one at a time.
    static let maximumRuns = 16

    init(_ keys: some Sequence<Int64>) {
        let sorted = keys.sorted()
        var runs: [ClosedRange<Int64>] = []
        for key in sorted {
            if let last = runs.last, key <= last.upperBound { continue }
            if let last = runs.last, key == last.upperBound &+ 1 {
                runs[runs.count - 1] = last.lowerBound...key
            } else {
                runs.append(key...key)
                if runs.count > Self.maximumRuns { break }
            }
        }
        if runs.count <= Self.maximumRuns {
            self.runs = runs
            self.list = nil
        } else {
            self.runs = nil
            self.list = .text("[" + sorted.map(String.init).joined(separator: ",") + "]")
        }
    }

    /// A condition that selects these keys from `column` in one statement, with its values, bound from
    /// parameter `first` on.
    func condition(on column: String, firstParameter first: Int = 1) -> (sql: String, bindings: [SQLValue]) {
        guard let runs else {
            return ("\(column) IN (SELECT value FROM json_each(?\(first)))", [list ?? .text("[]")])
        }
        guard !runs.isEmpty else { return ("0", []) }
        let terms = runs.indices.map { "\(column) BETWEEN ?\(first + 2 * $0) AND ?\(first + 2 * $0 + 1)" }
        let bindings = runs.flatMap { [SQLValue.integer($0.lowerBound), .integer($0.upperBound)] }
        return ("(" + terms.joined(separator: " OR ") + ")", bindings)
    }

    /// Runs the statement `make` writes around a condition that selects these keys from a column (the text after
    /// the column's name): once for each run of keys, or once for the whole list.
    func execute(_ connection: SQLiteConnection, _ make: (String) -> String) throws {
        if let runs {
            let statement = try connection.statement(make("BETWEEN ?1 AND ?2"))
            for run in runs { try statement.execute([.integer(run.lowerBound), .integer(run.upperBound)]) }
        } else if let list {
            try connection.statement(make("IN (SELECT value FROM json_each(?1))")).execute([list])
        }
    }
}
