public import Foundation

/// A transaction the built-in stores recorded: the changes one save wrote to one store.
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// The transaction's token type.
    public typealias TokenType = DefaultHistoryToken
    /// Identifies a transaction within its store: later transactions have greater identifiers.
    public typealias TransactionIdentifier = Int64

    /// The author of the context that saved the changes (`ModelContext.author`), or nil.
    public let author: String?
    /// The name of the program that saved the changes (its executable's name on Linux).
    public let bundleIdentifier: String
    /// The changes: the inserted models, then the updated ones, then the deleted ones, each in the order of the
    /// save.
    public let changes: [HistoryChange]
    /// The identifier of the process that saved the changes.
    public let processIdentifier: String
    /// The identifier of the store that recorded the transaction.
    public let storeIdentifier: String
    /// When the store recorded the transaction.
    public let timestamp: Date
    /// The transaction's place in its store's history.
    public let token: DefaultHistoryToken
    /// The transaction's identifier within its store.
    public let transactionIdentifier: TransactionIdentifier

    /// The transaction's identifier within its store.
    public var id: Int64 { transactionIdentifier }

    /// Equal when they are the same transaction of the same store.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.transactionIdentifier == rhs.transactionIdentifier && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the transaction's identifier and store.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(transactionIdentifier)
        hasher.combine(storeIdentifier)
    }
}
