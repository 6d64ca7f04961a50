import Foundation
import SwiftData
import Synchronization
import Testing

/// A transaction of `RecordingStore`'s history: one per save it was asked for.
struct RecordedSave: HistoryTransaction {
    typealias TokenType = Token
    typealias TransactionIdentifier = Int

    struct Token: Codable, Comparable, Hashable, Identifiable, Sendable {
        let value: Int
        var id: Int { value }
        static func < (lhs: Token, rhs: Token) -> Bool { lhs.value < rhs.value }
    }

    let author: String?
    let changes: [HistoryChange] = []
    let storeIdentifier: String
    let timestamp = Date()
    let token: Token
    var transactionIdentifier: Int { token.value }
    var id: Int { token.value }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.token == rhs.token }
    func hash(into hasher: inout Hasher) { hasher.combine(token) }
}

/// The saves a `RecordingStore` has been asked for, as its history, less those deleted.
extension RecordingStore: HistoryProviding {
    typealias HistoryType = RecordedSave

    private static let deletedTokens = Mutex<Set<Int>>([])

    private var transactions: [RecordedSave] {
        let deleted = Self.deletedTokens.withLock { $0 }
        return saveRequests.enumerated().compactMap { position, request in
            guard !deleted.contains(position) else { return nil }
            return RecordedSave(
                author: request.editingState.author, storeIdentifier: identifier, token: .init(value: position))
        }
    }

    func fetchHistory(_ descriptor: HistoryDescriptor<RecordedSave>) throws -> [RecordedSave] {
        try transactions.filter { try descriptor.predicate?.evaluate($0) ?? true }
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<RecordedSave>) throws {
        let selected = try fetchHistory(descriptor).map(\.token.value)
        Self.deletedTokens.withLock { $0.formUnion(selected) }
    }
}

/// `fetchHistory(_:)` and `deleteHistory(_:)` reach a custom store that adopts `HistoryProviding`.
@Suite(.serialized) struct HistoryProvidingTests {
    @Test func aCustomStoresHistoryIsFetchedAndDeletedThroughTheContext() throws {
        let schema = Schema([HookFolder.self, HookNote.self])
        let container = try ModelContainer(for: schema, configurations: [RecordingStoreConfiguration(schema: schema)])
        let context = ModelContext(container)
        context.author = "tester"
        for name in ["a", "b", "c"] {
            context.insert(HookFolder(name: name))
            try context.save()
        }
        let all = try context.fetchHistory(HistoryDescriptor<RecordedSave>(predicate: nil))
        #expect(all.count == 3)
        #expect(all.allSatisfy { $0.author == "tester" })
        let first = all[0].token
        try context.deleteHistory(HistoryDescriptor<RecordedSave>(predicate: #Predicate { $0.token == first }))
        #expect(try context.fetchHistory(HistoryDescriptor<RecordedSave>(predicate: nil)).count == 2)

        // The store records no default transactions: asking for them is an invalid request.
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil))
        }
    }
}
