extension DataStoreAdapter {
    /// The transactions a custom store that adopts `HistoryProviding` records, when they are of type `T`.
    func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? {
        try withHistoryProvider { provider in try Self.fetch(descriptor, from: provider) }
    }

    /// Deletes a custom store's transactions of type `T`; false when it records none of that type.
    func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool {
        try withHistoryProvider { provider in try Self.delete(descriptor, from: provider) } ?? false
    }

    private static func fetch<T: HistoryTransaction, Provider: HistoryProviding>(
        _ descriptor: HistoryDescriptor<T>, from provider: Provider
    ) throws -> [T]? {
        guard let descriptor = descriptor as? HistoryDescriptor<Provider.HistoryType> else { return nil }
        return try provider.fetchHistory(descriptor) as? [T]
    }

    private static func delete<T: HistoryTransaction, Provider: HistoryProviding>(
        _ descriptor: HistoryDescriptor<T>, from provider: Provider
    ) throws -> Bool? {
        guard let descriptor = descriptor as? HistoryDescriptor<Provider.HistoryType> else { return nil }
        try provider.deleteHistory(descriptor)
        return true
    }
}
