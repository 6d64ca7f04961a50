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
    /// The actor the observer was created on, which applies its updates; nil when it was created outside any.
    private let isolation: (any Actor)?
    private let sectionTitle: ((Element) -> SectionTitle)?
    private var descriptor: FetchDescriptor<Element>
    private var models: [Element] = []
    private var madeSections: SectionedResults<Element, SectionTitle>?
    private var lastError: (any Error)?

    /// What the other threads that tell the observer of changes share with it.
    private let routing: ChangeRouting
    /// Models of the context changed in memory since the last update, by identity.
    private var locallyChanged: [ObjectIdentifier: ModelStorage] = [:]
    private var locallyNeedsRefetch = false
    /// Models whose rows others deleted while this context holds them with unsaved changes: a fetch no longer
    /// finds them, whatever their values.
    private var deletedElsewhere: Set<PersistentIdentifier> = []
    private var listener: SaveListener?
    private var remoteChangeObservation: (any NSObjectProtocol)?
    /// How the observer's updates went, for tests and the benchmark.
    @_spi(Instrumentation) public var statistics: ResultsObserverStatistics {
        var statistics = counts
        statistics.savesIgnored = routing.savesIgnored
        return statistics
    }
    private var counts = ResultsObserverStatistics()

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
        models = try modelContext.fetch(descriptor)
        madeSections = makeSections(of: models)
        startFollowing()
    }

    deinit {
        if let remoteChangeObservation { NotificationCenter.default.removeObserver(remoteChangeObservation) }
        modelContext.localChangeObservers.remove(self)
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
        let reference = ArrivalTarget(self)
        LocalChangeObservers.liveCount.add(1, ordering: .relaxed)
        modelContext.localChangeObservers.add(self)
        let routing = routing
        let listener = SaveListener { changes, sender in
            let arrival = routing.route(changes, isOwnSave: sender === routing.inbox)
            reference.receiver?.changesArrived(arrival)
        }
        modelContext.container.broadcaster.register(listener)
        self.listener = listener
        guard let reader = try? RemoteTransactionReader(container: modelContext.container) else { return }
        remoteChangeObservation = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: modelContext.container, queue: nil
        ) { notification in
            guard let store = notification.userInfo?["storeIdentifier"] as? String else { return }
            guard let transactions = try? reader.newTransactions(of: store) else {
                // The history could not be read: only a refetch can tell what changed.
                let arrival = routing.changes.add(identifiers: [], needsRefetch: true, needsMerge: false)
                reference.receiver?.changesArrived(arrival)
                return
            }
            for transaction in transactions {
                let changes = reader.savedChanges(of: transaction, storeIdentifier: store)
                // The context merges them as it merges its container's other contexts' saves.
                routing.inbox.post(changes)
                reference.receiver?.changesArrived(routing.route(changes, isOwnSave: false))
            }
        }
    }

    /// Starts the update that applies what is pending, when the changes call for one: on the observer's actor,
    /// after the work running now. Without an actor, the next read applies them, and observers are told now of
    /// changes that may change the results. Called from any thread: it touches only what is `Sendable`.
    func changesArrived(_ arrival: ObservedChanges.Arrival) {
        guard let isolation else {
            guard arrival.changesResults else { return }
            registrar.willSet(self, keyPath: \.results)
            registrar.didSet(self, keyPath: \.results)
            if sectionTitle != nil {
                registrar.willSet(self, keyPath: \.sections)
                registrar.didSet(self, keyPath: \.sections)
            }
            return
        }
        guard arrival.startsUpdate else { return }
        ObserverReference(self).run(on: isolation) { $0.update() }
    }

    /// Applies what is pending, when something is.
    private func bringUpToDate() {
        if routing.changes.isScheduled { update() }
    }

    /// Applies the changes gathered since the last update: merges other contexts' saves into the context, then
    /// moves the changed models into place, or fetches again.
    private func update() {
        let pending = routing.changes.take()
        let storages = Array(locallyChanged.values)
        let needsRefetch = pending.needsRefetch || locallyNeedsRefetch
        locallyChanged = [:]
        locallyNeedsRefetch = false
        if pending.needsMerge { modelContext.applyExternalChanges() }
        if !pending.deleted.isEmpty || !deletedElsewhere.isEmpty {
            // Only models the context still holds matter: the others left the context, and the results, as deleted.
            deletedElsewhere.formUnion(pending.deleted)
            deletedElsewhere = deletedElsewhere.filter { modelContext.registeredModel(for: $0) != nil }
        }
        guard needsRefetch || !pending.identifiers.isEmpty || !storages.isEmpty else { return }
        if !needsRefetch, canUpdateInPlace, let updated = try? modelsUpdated(storages, pending.identifiers) {
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

    // MARK: - Updating in Place

    /// The results with the named models moved in, out or into place: each is evaluated with the predicate and
    /// placed by the sort, the others keep their order.
    ///
    /// - Throws: what reading a named model, or evaluating the predicate, throws; the caller fetches instead.
    private func modelsUpdated(_ storages: [ModelStorage], _ identifiers: Set<PersistentIdentifier>) throws
        -> [Element]
    {
        var named = Set<ObjectIdentifier>()
        var candidates: [Element] = []
        func consider(_ model: any PersistentModel) {
            guard named.insert(ObjectIdentifier(model)).inserted else { return }
            if let element = model as? Element, element.storage.context === modelContext, !element.storage.isDeleted,
                deletedElsewhere.isEmpty || !deletedElsewhere.contains(element.storage.identifier)
            {
                candidates.append(element)
            }
        }
        for storage in storages {
            if let model = storage.model { consider(model) }
        }
        var gone = deletedElsewhere
        for identifier in identifiers where !gone.contains(identifier) {
            if let model = try modelContext.resolveModel(for: identifier) {
                consider(model)
            } else {
                gone.insert(identifier)
            }
        }
        var updated = models.filter { model in
            let storage = model.storage
            return !named.contains(ObjectIdentifier(model)) && storage.context === modelContext && !storage.isDeleted
                && (gone.isEmpty || !gone.contains(storage.identifier))
        }
        let predicate = descriptor.predicate
        for candidate in candidates where try predicate?.evaluate(candidate) ?? true {
            updated.insert(candidate, at: insertionPoint(of: candidate, in: updated))
        }
        return updated
    }

    /// Where a model goes in sorted results: after every model that precedes it.
    private func insertionPoint(of model: Element, in sorted: [Element]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(sorted[middle], model) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The fetch's order: the sort descriptors, then the store's order of rows (by key), models not saved yet last
    /// in the order they were made, as a fetch orders ties.
    private func precedes(_ lhs: Element, _ rhs: Element) -> Bool {
        for sort in descriptor.sortBy {
            switch sort.compare(lhs, rhs) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return Self.storeOrder(lhs.storage.identifier, rhs.storage.identifier)
    }

    private static func storeOrder(_ lhs: PersistentIdentifier, _ rhs: PersistentIdentifier) -> Bool {
        switch (lhs.id.key, rhs.id.key) {
        case (.temporary(let left), .temporary(let right)): left < right
        case (.temporary, _): false
        case (_, .temporary): true
        case (let left, let right): left < right
        }
    }
}

extension ResultsObserver: ChangeArrivalReceiver {}

extension ResultsObserver: LocalChangeObserver {
    func contextDidChange(_ change: LocalChange) {
        switch change {
        case .inserted(let storage), .deleted(let storage), .refreshed(let storage):
            noteLocalChange(of: storage, property: nil)
        case .changed(let storage, let slot):
            noteLocalChange(of: storage, property: storage.entity.persistedProperties[slot].name)
        case .rowsDeleted(let entity):
            guard descriptor.includePendingChanges,
                routing.reads.isAffected(byChangeIn: entity.tableName, property: nil)
            else { return }
            locallyNeedsRefetch = true
            scheduleLocalUpdate()
        case .rolledBack:
            guard descriptor.includePendingChanges else { return }
            locallyNeedsRefetch = true
            scheduleLocalUpdate()
        }
    }

    /// Notes a model's change in memory, when the results see pending changes and the change can move the model in
    /// or out of them or within them; a change of another entity that the predicate reads asks for a refetch.
    private func noteLocalChange(of storage: ModelStorage, property: String?) {
        guard descriptor.includePendingChanges else { return }
        let table = storage.entity.tableName
        let reads = routing.reads
        guard reads.isAffected(byChangeIn: table, property: property) else {
            counts.changesIgnored += 1
            return
        }
        if table == reads.resultTable {
            locallyChanged[ObjectIdentifier(storage)] = storage
        } else {
            locallyNeedsRefetch = true
        }
        scheduleLocalUpdate()
    }

    private func scheduleLocalUpdate() {
        changesArrived(ObservedChanges.Arrival(startsUpdate: routing.changes.schedule(), changesResults: true))
    }
}

/// What threads other than an observer's actor tell it of: changes that arrived.
protocol ChangeArrivalReceiver: AnyObject {
    /// Called from any thread: touches only the receiver's `Sendable` parts.
    func changesArrived(_ arrival: ObservedChanges.Arrival)
}

/// A weak reference to an observer for the threads that tell it of changes.
final class ArrivalTarget: @unchecked Sendable {
    // @unchecked: the weak reference is only read, and the receiver's method touches only what is Sendable.
    weak var receiver: (any ChangeArrivalReceiver)?

    init(_ receiver: any ChangeArrivalReceiver) {
        self.receiver = receiver
    }
}

/// A weak reference to an observer, with which work is sent to the observer's actor.
final class ObserverReference<Observer: AnyObject>: @unchecked Sendable {
    weak var observer: Observer?

    init(_ observer: Observer) {
        self.observer = observer
    }

    /// Runs `body` with the observer on its actor, after the work running there now, unless the observer is gone.
    func run(on isolation: any Actor, _ body: @escaping (Observer) -> Void) {
        let task = UncheckedTask(body: body)
        Task { await self.perform(task, isolation: isolation) }
    }

    private func perform(_ task: UncheckedTask, isolation: isolated any Actor) {
        if let observer { task.body(observer) }
    }

    /// A closure over the observer, which runs on the observer's actor only.
    private struct UncheckedTask: @unchecked Sendable {
        let body: (Observer) -> Void
    }
}

/// How the updates of a `ResultsObserver` went: what the benchmark and the tests measure.
@_spi(Instrumentation) public struct ResultsObserverStatistics: Sendable {
    /// Fetches made after the first one.
    public internal(set) var refetches = 0
    /// Updates made without fetching: the changed models evaluated and moved into place.
    public internal(set) var updatesInPlace = 0
    /// Changes in the context that could not change the results, and were not looked at further.
    public internal(set) var changesIgnored = 0
    /// Saves of other contexts, and commits of other processes, that could not change the results.
    public internal(set) var savesIgnored = 0
}
