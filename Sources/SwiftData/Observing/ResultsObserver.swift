internal import Foundation
internal import Synchronization

/// Fetched models that stay current: the results of a fetch, updated as the models they select change.
///
/// A results observer is `@Query` for code outside SwiftUI: a terminal program, a server pushing updates over a
/// web socket, a coordinator that reacts to data. It fetches once when created, then follows:
///
/// - changes made in its model context, saved or not (with `includePendingChanges`, the default);
/// - saves of the container's other contexts;
/// - commits of other processes and other containers on the same store files, which it reads from the stores'
///   history when the container posts ``ModelContainer/remoteChange``.
///
/// It is `Observable`: read `results` (or `sections`) inside `withObservationTracking` to be told when they change.
///
/// ```swift
/// @MainActor final class TaskList {
///     let observer: ResultsObserver<TaskItem, Never>
///     init(context: ModelContext) throws {
///         observer = try ResultsObserver(
///             filterBy: #Predicate { !$0.isDone }, sortBy: [SortDescriptor(\.title)], modelContext: context)
///     }
/// }
/// ```
///
/// ## Updates
///
/// An observer belongs to the actor it was created on (its `isolation`), as its context does. Changes are
/// gathered as they come and applied in one update on that actor, after the work running now; a read of
/// `results` or `sections` applies what is pending at once, so a read always sees current results. An observer
/// created outside any actor applies changes when its results are next read, and tells its observers of a change
/// on the thread that made it.
///
/// An update looks only at what can change the results: a change of another entity, or of properties that neither
/// the predicate, nor the sort, nor the section key path reads, costs nothing (the models' own properties still
/// publish their changes). When the descriptor has no limit and no offset, the models a change names are
/// evaluated in memory, with `Predicate.evaluate` and the sort's own comparison, and moved into place, without a
/// fetch; otherwise, and for changes that reach the results through relationships, the observer fetches again.
///
/// A fetch that fails after creation keeps the last results and sets ``fetchError``; the next change tries again.
public final class ResultsObserver<Element, SectionTitle>: Observable
where Element: PersistentModel, SectionTitle: Hashable {
    /// The context the observer fetches from and follows.
    public let modelContext: ModelContext
    /// The key path the results are sectioned by, or nil for results without sections.
    public let sectionBy: PartialKeyPath<Element>?

    private let registrar = ObservationRegistrar()
    /// How many tellings of a change without an actor are running: a read inside one (an `onChange` handler)
    /// gets the results as they were, as Observation tells of a change before it is made, and does not update
    /// them in the middle of the change that is being told.
    private let tellings = Atomic<Int>(0)
    /// The actor the observer was created on, which applies its updates; nil when it was created outside any.
    private let isolation: (any Actor)?
    private let sectionTitle: ((Element) -> SectionTitle)?
    var descriptor: FetchDescriptor<Element>
    var models: [Element] = []
    private var madeSections: SectionedResults<Element, SectionTitle>?
    private var lastError: (any Error)?

    /// What the other threads that tell the observer of changes share with it.
    let routing: ChangeRouting
    /// Models of the context changed in memory since the last update, by identity.
    var locallyChanged: [ObjectIdentifier: any PersistentModel] = [:]
    var locallyNeedsRefetch = false
    private var listener: SaveListener?
    /// What other threads hold of the observer (see `ArrivalTarget`).
    private(set) var target: ArrivalTarget?
    private var remoteChangeObservation: (any NSObjectProtocol)?
    /// How the observer's updates went, for tests and the benchmark.
    @_spi(Instrumentation) public var statistics: ResultsObserverStatistics {
        var statistics = counts
        statistics.savesIgnored = routing.savesIgnored
        return statistics
    }
    var counts = ResultsObserverStatistics()

    init(
        fetchDescriptor: FetchDescriptor<Element>,
        sectionBy: PartialKeyPath<Element>?,
        sectionTitle: ((Element) -> SectionTitle)?,
        modelContext: ModelContext,
        isolation: (any Actor)?
    ) throws {
        self.modelContext = modelContext
        self.sectionBy = sectionBy
        self.sectionTitle = sectionTitle
        self.isolation = isolation
        self.descriptor = Self.sorted(fetchDescriptor, sectionBy: sectionBy)
        self.routing = ChangeRouting(
            reads: ObservedReads(descriptor, sectionBy: sectionBy, of: Element.self),
            includesPendingChanges: fetchDescriptor.includePendingChanges,
            container: modelContext.container,
            inbox: modelContext.inbox)
        // Following starts first: a save or commit made while the first fetch runs is applied by the next update.
        startFollowing()
        models = try modelContext.fetch(descriptor)
        madeSections = makeSections(of: models)
    }

    deinit {
        // The last reference may go on a thread that was telling the observer of a change: the context, which
        // belongs to the observer's actor, is not touched here. Its entry for the observer is weak, and goes at
        // the context's next change.
        if let remoteChangeObservation { NotificationCenter.default.removeObserver(remoteChangeObservation) }
        LocalChangeObservers.liveCount.subtract(1, ordering: .relaxed)
    }

    // MARK: - Results

    /// The models that match the fetch descriptor, in its order.
    public var results: FetchResultsCollection<Element> {
        bringUpToDate()
        registrar.access(self, keyPath: \.results)
        return FetchResultsCollection(loaded: models)
    }

    /// The results grouped by `sectionBy`, or nil when the observer was created without it.
    public var sections: SectionedResults<Element, SectionTitle>? {
        bringUpToDate()
        registrar.access(self, keyPath: \.sections)
        return madeSections
    }

    /// The error of the last update's fetch, or nil when it succeeded. An addition to Apple's API, as `@Query`'s
    /// `fetchError`: an automatic update has no caller to throw to.
    public var fetchError: (any Error)? {
        registrar.access(self, keyPath: \.fetchError)
        return lastError
    }

    // MARK: - Criteria

    /// What the observer fetches: its predicate, sort and other options. With sections, the sort starts with the
    /// section key path.
    public var fetchDescriptor: FetchDescriptor<Element> {
        registrar.access(self, keyPath: \.fetchDescriptor)
        return descriptor
    }

    /// The predicate the results match, or nil for every model. Setting it fetches again at once, on the
    /// caller's actor; a fetch that fails sets ``fetchError`` and keeps the last results.
    public var filterBy: Predicate<Element>? {
        get {
            registrar.access(self, keyPath: \.filterBy)
            return descriptor.predicate
        }
        set {
            var changed = descriptor
            changed.predicate = newValue
            replaceDescriptor(with: changed, changing: \.filterBy)
        }
    }

    /// The order of the results. Setting it fetches again at once, on the caller's actor; with sections, the
    /// section key path stays first.
    public var sortBy: [SortDescriptor<Element>] {
        get {
            registrar.access(self, keyPath: \.sortBy)
            return descriptor.sortBy
        }
        set {
            var changed = descriptor
            changed.sortBy = newValue
            replaceDescriptor(with: Self.sorted(changed, sectionBy: sectionBy), changing: \.sortBy)
        }
    }

    private func replaceDescriptor<Member>(
        with changed: FetchDescriptor<Element>, changing keyPath: KeyPath<ResultsObserver, Member>
    ) {
        registrar.withMutation(of: self, keyPath: keyPath) {
            registrar.withMutation(of: self, keyPath: \.fetchDescriptor) { descriptor = changed }
        }
        routing.reads = ObservedReads(changed, sectionBy: sectionBy, of: Element.self)
        // What was pending is part of the new fetch.
        _ = routing.changes.take()
        locallyChanged = [:]
        locallyNeedsRefetch = false
        refetch()
    }

    /// A descriptor whose sort starts with the section key path, so that each section's models are together.
    private static func sorted(_ descriptor: FetchDescriptor<Element>, sectionBy: PartialKeyPath<Element>?)
        -> FetchDescriptor<Element>
    {
        guard let sectionBy else { return descriptor }
        var sorted = descriptor
        if sorted.sortBy.first?.keyPath != sectionBy {
            // Key paths are immutable; Foundation asks for `Sendable` ones, which the key path types do not say.
            if let keyPath = sectionBy as? KeyPath<Element, String> {
                let sendable = unsafeBitCast(keyPath, to: (any KeyPath<Element, String> & Sendable).self)
                sorted.sortBy.insert(SortDescriptor(sendable, comparator: .lexical), at: 0)
            } else if let keyPath = sectionBy as? KeyPath<Element, String?> {
                let sendable = unsafeBitCast(keyPath, to: (any KeyPath<Element, String?> & Sendable).self)
                sorted.sortBy.insert(SortDescriptor(sendable, comparator: .lexical), at: 0)
            }
        }
        return sorted
    }

    private func makeSections(of models: [Element]) -> SectionedResults<Element, SectionTitle>? {
        sectionTitle.map { SectionedResults(models, title: $0) }
    }

    // MARK: - Following Changes

    private func startFollowing() {
        let target = ArrivalTarget(self, isolation: isolation)
        self.target = target
        LocalChangeObservers.liveCount.add(1, ordering: .relaxed)
        modelContext.localChangeObservers.add(self)
        let routing = routing
        let listener = SaveListener(
            receive: { changes, sender in
                target.changesArrived(routing.route(changes, isOwnSave: sender === routing.inbox))
            },
            storesEmptied: {
                // The context drops the models of the emptied stores (its inbox was told); the results are fetched.
                target.changesArrived(routing.changes.add(identifiers: [], needsRefetch: true, needsMerge: true))
            })
        modelContext.container.broadcaster.register(listener)
        self.listener = listener
        let container = modelContext.container
        // Made at the first remote change when the history cannot be read now; that change then fetches again.
        let reader = Locked(try? RemoteTransactionReader(container: container))
        remoteChangeObservation = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: container, queue: nil
        ) { notification in
            guard let store = notification.userInfo?["storeIdentifier"] as? String else { return }
            let read = reader.withLock {
                reader -> (reader: RemoteTransactionReader, isComplete: Bool, transactions: [RecordedTransaction])? in
                guard let current = reader else {
                    reader = try? RemoteTransactionReader(container: container)
                    return nil
                }
                return (try? current.newTransactions(of: store)).map { (current, $0.isComplete, $0.transactions) }
            }
            guard let read, read.isComplete else {
                // The history could not be read, or was deleted before it was: only re-reading the models the
                // context holds, and a refetch, can tell what changed.
                routing.inbox.refreshAll()
                target.changesArrived(routing.changes.add(identifiers: [], needsRefetch: true, needsMerge: true))
                return
            }
            for transaction in read.transactions {
                let changes = read.reader.savedChanges(of: transaction, storeIdentifier: store)
                // The context merges them as it merges its container's other contexts' saves.
                routing.inbox.post(changes)
                target.changesArrived(routing.route(changes, isOwnSave: false))
            }
        }
    }

    /// Tells the observer's observers of changes that may alter the results, for an observer without an actor: the
    /// next read applies them. Called on the thread the changes arrived on: touches only what is `Sendable`.
    func changesArrivedWithoutActor(_ arrival: ObservedChanges.Arrival) {
        guard arrival.changesResults else { return }
        tellings.add(1, ordering: .relaxed)
        defer { tellings.subtract(1, ordering: .relaxed) }
        registrar.willSet(self, keyPath: \.results)
        registrar.didSet(self, keyPath: \.results)
        if sectionTitle != nil {
            registrar.willSet(self, keyPath: \.sections)
            registrar.didSet(self, keyPath: \.sections)
        }
    }

    /// Applies the changes that arrived, on the observer's actor.
    func applyArrivedChanges() {
        update()
    }

    /// Applies what is pending, when something is.
    private func bringUpToDate() {
        if routing.changes.isScheduled, tellings.load(ordering: .relaxed) == 0 { update() }
    }

    /// Applies the changes gathered since the last update: merges other contexts' saves into the context, then
    /// moves the changed models into place, or fetches again.
    private func update() {
        let pending = routing.changes.take()
        let changedModels = Array(locallyChanged.values)
        let needsRefetch = pending.needsRefetch || locallyNeedsRefetch
        locallyChanged = [:]
        locallyNeedsRefetch = false
        if pending.needsMerge { modelContext.applyExternalChanges() }
        if !modelContext.heldAfterDeletionElsewhere.isEmpty {
            // Only models the context still holds matter: the others left the context, and the results, as deleted.
            modelContext.heldAfterDeletionElsewhere = modelContext.heldAfterDeletionElsewhere.filter {
                modelContext.registeredModel(for: $0) != nil
            }
        }
        guard needsRefetch || !pending.identifiers.isEmpty || !changedModels.isEmpty else { return }
        if !needsRefetch, canUpdateInPlace, let updated = try? modelsUpdated(changedModels, pending.identifiers) {
            counts.updatesInPlace += 1
            publish(updated)
        } else {
            refetch()
        }
    }

    /// True when the models a change names are enough to update the results: nothing is cut by a limit or an
    /// offset, and the models in memory show the pending changes the fetch sees.
    private var canUpdateInPlace: Bool {
        descriptor.fetchLimit == nil && (descriptor.fetchOffset ?? 0) == 0 && descriptor.includePendingChanges
            && lastError == nil
    }

    private func refetch() {
        counts.refetches += 1
        do {
            publish(try modelContext.fetch(descriptor))
            if lastError != nil { registrar.withMutation(of: self, keyPath: \.fetchError) { lastError = nil } }
        } catch {
            registrar.withMutation(of: self, keyPath: \.fetchError) { lastError = error }
        }
    }

    /// Shows new results, telling observers only of what changed.
    private func publish(_ updated: [Element]) {
        let isSame = updated.count == models.count && zip(updated, models).allSatisfy { $0 === $1 }
        if !isSame { registrar.withMutation(of: self, keyPath: \.results) { models = updated } }
        guard sectionTitle != nil else { return }
        let sections = makeSections(of: updated)
        let sameSections =
            madeSections.map { made in
                sections.map {
                    made.sectionTitles == $0.sectionTitles && zip(made, $0).allSatisfy { $0.count == $1.count }
                }
                    ?? false
            } ?? false
        if !isSame || !sameSections {
            registrar.withMutation(of: self, keyPath: \.sections) { madeSections = sections }
        }
    }
}
