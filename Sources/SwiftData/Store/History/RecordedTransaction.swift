internal import Foundation

/// A transaction as a store keeps it: what one save changed in the store, in a store-neutral form that
/// `ModelContext.fetchHistory(_:)` turns into `DefaultHistoryTransaction` values.
package struct RecordedTransaction: Sendable {
    /// The transaction's place in the store's history: greater for later transactions, never reused.
    package let token: Int64
    package let author: String?
    package let timestamp: Date
    /// The program and process that saved (see `DefaultHistoryTransaction`).
    package let bundleIdentifier: String
    package let processIdentifier: String
    package let changes: RecordedChanges

    package init(
        token: Int64, author: String?, timestamp: Date, bundleIdentifier: String, processIdentifier: String,
        changes: RecordedChanges
    ) {
        self.token = token
        self.author = author
        self.timestamp = timestamp
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.changes = changes
    }
}

/// The history a store keeps (see `ModelStore.recordedHistory`).
package protocol StoreHistory: Sendable {
    /// Every recorded transaction with a token greater than `token` (all of them for nil), in token order, and the
    /// greatest token of a deleted transaction (0 when none was deleted).
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the store when its history cannot be read.
    func transactions(after token: Int64?) throws -> (transactions: [RecordedTransaction], deletedThrough: Int64)

    /// The newest token the store gave, its transaction deleted or not, or 0 when it gave none: where a reader that
    /// wants only later transactions starts.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the store when its history cannot be read.
    func newestToken() throws -> Int64

    /// True when this store object recorded the transaction with this token: a save of a context of this
    /// container, which the container's contexts and live queries heard of when it was made.
    func isOwnTransaction(_ token: Int64) -> Bool

    /// Deletes the transactions with these tokens.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the store when its history cannot be written.
    func deleteTransactions(_ tokens: [Int64]) throws
}

extension RecordedTransaction {
    /// Who is saving: the executable's name and the process identifier, recorded with each transaction.
    package static let currentProgram: (bundleIdentifier: String, processIdentifier: String) = (
        ProcessInfo.processInfo.processName, String(ProcessInfo.processInfo.processIdentifier)
    )
}

extension ModelStore {
    /// Runs a read (`action` "reading") or a deletion of the store's history, its failures reported as the
    /// store's; a store opened with `allowsSave: false` deletes nothing.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the store.
    package func historyAccess<T>(_ action: String, _ body: () throws -> T) throws -> T {
        guard allowsSave || action == "reading" else {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the store '\(name)' was opened with allowsSave: false; its history cannot be deleted")
        }
        do {
            return try body()
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError(
                .loadIssueModelContainer, "\(action) the history of the store '\(name)' failed", underlying: error)
        }
    }
}
