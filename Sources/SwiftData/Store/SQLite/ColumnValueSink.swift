/// Binds values to a statement's parameters 1, 2, 3… in the order they come, so that a row is written without
/// first being collected in an array.
struct StatementParameters: ColumnValueSink {
    fileprivate let statement: SQLiteStatement
    fileprivate var next: Int32 = 1

    mutating func append(_ value: SQLValue) throws {
        try statement.bind(value, at: next)
        next += 1
    }
}

extension SQLiteStatement {
    /// Ends the statement's previous run and returns its parameters, to bind in order before `run()`.
    func parameters() -> StatementParameters {
        reset()
        return StatementParameters(statement: self)
    }

    /// Runs the statement to completion with the parameters bound so far.
    func run() throws {
        defer { reset() }
        while try step() {}
    }
}
