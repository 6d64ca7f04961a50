/// A custom store that records history: it answers `ModelContext.fetchHistory(_:)` and `deleteHistory(_:)` for
/// its own transaction type.
public protocol HistoryProviding<HistoryType> {
    /// The type of the store's transactions.
    associatedtype HistoryType: HistoryTransaction

    /// The type of the store's transactions.
    static var historyType: HistoryType.Type { get }

    /// The store's transactions that a descriptor selects.
    ///
    /// - Throws: `SwiftDataError.historyTokenExpired` when the descriptor names a token whose later history was
    ///   deleted, or any error the store meets.
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType]

    /// Deletes the store's transactions that a descriptor selects.
    ///
    /// - Throws: Any error the store meets.
    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws
}

extension HistoryProviding {
    /// The type of the store's transactions.
    public static var historyType: HistoryType.Type { HistoryType.self }
}
