/// What `ModelContext.fetchHistory(_:)` and `deleteHistory(_:)` select: the transactions a predicate accepts, in an
/// order, up to a limit.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
///     predicate: #Predicate { $0.token > lastToken && $0.author != "importer" })
/// descriptor.fetchLimit = 100
/// let transactions = try context.fetchHistory(descriptor)
/// ```
public struct HistoryDescriptor<TransactionType: HistoryTransaction> {
    /// The condition a transaction must meet, or nil for every transaction.
    public var predicate: Predicate<TransactionType>?
    /// The order of the transactions; empty for the order they were recorded in.
    public var sortBy: [SortDescriptor<TransactionType>]
    /// The largest number of transactions to fetch; 0 for no limit.
    public var fetchLimit: UInt64 = 0

    /// A descriptor of the transactions a predicate accepts, in the order they were recorded.
    public init(predicate: Predicate<TransactionType>?) {
        self.predicate = predicate
        self.sortBy = []
    }

    /// A descriptor of the transactions a predicate accepts, in the given order.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

extension HistoryDescriptor: Sendable {}
