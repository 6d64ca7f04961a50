internal import Foundation

/// Tells when other processes or containers commit changes of interest to a container's stores: its
/// ``eventCounter`` goes up, and you fetch the new history transactions.
///
/// The observer follows ``ModelContainer/remoteChange``. For each notification it reads the store's transactions
/// after the last one it saw, and counts an event when one of them changes a model of `observedModels` (any model
/// when it is empty) and was saved by one of `authors` (any author when it is empty).
///
/// ```swift
/// let observer = try HistoryObserver(observedModels: [Trip.self], modelContainer: container)
/// let token = withObservationTracking { _ = observer.eventCounter } onChange: {
///     Task { @MainActor in try processNewTransactions() }
/// }
/// ```
///
/// Saves of the container's own contexts are not remote changes: use `ModelContext.didSave`, or
/// `ModelContainer.savedChanges()`, for those. Stores in memory and custom stores post no remote changes.
///
/// The event counter changes on the observer's actor (its `isolation`), after the work running there now; an
/// observer created outside any actor changes it on the thread that reads the store's history.
public final class HistoryObserver: Observable, ChangeArrivalReceiver {
    /// The container whose stores are observed.
    public let modelContainer: ModelContainer
    /// The model types whose changes count; empty for all of them.
    public let observedModels: [any PersistentModel.Type]
    /// The authors whose transactions count; empty for all of them.
    public let authors: Set<String>

    private let registrar = ObservationRegistrar()
    private let isolation: (any Actor)?
    private let reader: RemoteTransactionReader
    private let counter = Locked(0)
    private var remoteChangeObservation: (any NSObjectProtocol)?

    /// Observes the stores of a container, from the places in their history that `historyTokens` name (by store
    /// identifier), or from now for the stores they do not name.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming a store whose history cannot be read.
    public convenience init(
        historyTokens: [String: any HistoryToken]? = nil, observedModels: [any PersistentModel.Type] = [],
        authors: Set<String> = [], modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        var places: [String: Int64] = [:]
        for (store, token) in historyTokens ?? [:] {
            if let place = (token as? DefaultHistoryToken)?.tokenValue?[store] { places[store] = place }
        }
        try self.init(
            places: places, observedModels: observedModels, authors: authors, modelContainer: modelContainer,
            isolation: isolation)
    }

    private init(
        places: [String: Int64], observedModels: [any PersistentModel.Type], authors: Set<String>,
        modelContainer: ModelContainer, isolation: (any Actor)?
    ) throws {
        self.modelContainer = modelContainer
        self.observedModels = observedModels
        self.authors = authors
        self.isolation = isolation
        reader = try RemoteTransactionReader(container: modelContainer, startingAfter: places)
        let entityNames = Set(observedModels.flatMap { Schema.Entity.of($0).hierarchyNames })
        let authors = authors
        let reader = reader
        let target = ArrivalTarget(self, isolation: isolation)
        remoteChangeObservation = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: modelContainer, queue: nil
        ) { notification in
            guard let store = notification.userInfo?["storeIdentifier"] as? String,
                let read = try? reader.newTransactions(of: store)
            else { return }
            // Transactions deleted before they were read may have matched: count an event, and the history fetch
            // the app makes then tells what is left.
            let matches =
                !read.isComplete
                || read.transactions.contains { transaction in
                    (authors.isEmpty || transaction.author.map(authors.contains) == true)
                        && (entityNames.isEmpty
                            || transaction.changes.groups.contains { entityNames.contains($0.entityName) })
                }
            if matches { target.changesArrived(ObservedChanges.Arrival(startsUpdate: true, changesResults: true)) }
        }
    }

    deinit {
        if let remoteChangeObservation { NotificationCenter.default.removeObserver(remoteChangeObservation) }
    }

    /// How many times relevant transactions arrived. Observe it, and fetch the history after the last token you
    /// processed when it changes.
    public var eventCounter: Int {
        registrar.access(self, keyPath: \.eventCounter)
        return counter.withLock { $0 }
    }

    /// Where the observer is in each store's history, by store identifier: the newest transaction it has read.
    /// An addition to Apple's API; pass it to a later observer's `init(historyTokens:...)` to resume from here.
    public var historyTokens: [String: any HistoryToken] {
        var tokens: [String: any HistoryToken] = [:]
        for (store, place) in reader.tokens {
            tokens[store] = DefaultHistoryToken(storeIdentifier: store, value: place)
        }
        return tokens
    }

    func changesArrivedWithoutActor(_ arrival: ObservedChanges.Arrival) {
        registrar.withMutation(of: self, keyPath: \.eventCounter) { counter.withLock { $0 += 1 } }
    }

    func applyArrivedChanges() {
        registrar.withMutation(of: self, keyPath: \.eventCounter) { counter.withLock { $0 += 1 } }
    }

}
