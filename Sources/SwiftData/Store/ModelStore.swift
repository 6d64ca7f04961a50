/// A store as the context and fetch layers see it: every read and every write of models goes through this
/// interface, so those layers hold no query text and no type of any one store.
///
/// The context decides what to read and what to write; the store decides how. A store translates what it can of a
/// fetch (`filter(for:entity:)`, `sortOrder(for:entity:)`) and says what it cannot, and the fetch layer then
/// evaluates that part in memory with Swift's own semantics. Rows come back decoded (`StoreRow`), and a store
/// decodes them straight from its own representation into models' values, so the interface costs the built-in
/// stores no copy of a row.
package protocol ModelStore: AnyObject, Sendable {
    /// The rows the store hands to `readRows(_:_:)`.
    associatedtype Row: StoreRow

    /// The identifier the store keeps for itself, which the identifiers of its models carry.
    var identifier: String { get }
    /// The scope of the identifiers of an entity's models in the store. The SQLite store keeps one per entity, so the
    /// identifiers it makes share theirs; the default makes a new one.
    func identifierScope(entityName: String) -> IdentifierScope
    /// The store's name in messages: its configuration's name.
    var name: String { get }
    /// False for a store opened with `allowsSave: false`.
    var allowsSave: Bool { get }
    /// The entities whose models the store holds.
    var entities: [Schema.Entity] { get }
    /// True when `beginSave(_:)` writes in a transaction that `commit()` or `rollBack()` ends; false for a store
    /// that commits as it writes (a custom store), whose save cannot be rolled back.
    var writesInTransaction: Bool { get }

    // MARK: Translating

    /// The store's form of a predicate over an entity's models.
    ///
    /// - Throws: `StoreCannotEvaluate` when the store cannot evaluate the predicate exactly as Swift does; the
    ///   fetch then evaluates it in memory.
    func filter<T: PersistentModel>(for predicate: Predicate<T>, entity: Schema.Entity) throws -> any StoreFilter

    /// The store's form of sort descriptors over an entity's models, ties broken by identifier.
    ///
    /// - Throws: `StoreCannotEvaluate` when the store cannot order exactly as `sorted(using:)` does; the fetch then
    ///   sorts in memory.
    func sortOrder<T: PersistentModel>(for sortBy: [SortDescriptor<T>], entity: Schema.Entity) throws
        -> any StoreSortOrder

    // MARK: Reading

    /// Hands each row a request selects to `body`, in the request's order.
    ///
    /// A store may call `body` while it holds a connection or lock, but only when decoding the row's values runs
    /// no code of the app (no transformer, no `Codable` conformance the app wrote, no file read): `body` must then
    /// not use the store, and the context only decodes and keeps values in it. Otherwise the store reads every
    /// row first and calls `body` once it holds nothing.
    ///
    /// - Throws: `StoreCannotEvaluate` when the store stopped because only Swift can decide a row (a force unwrap
    ///   of nil, a division by zero); `SwiftDataError.loadIssueModelContainer` naming the entity when the store
    ///   cannot be read or a value does not fit its property's type.
    func readRows(_ request: StoreReadRequest, _ body: (Row) throws -> Void) throws

    /// `readRows(_:_:)` into a sink: the slots of new models made by the store, rows of held models retained.
    /// A store rarely implements it: the default (see `StoreRowSink`) serves, compiled for each store type.
    ///
    /// - Throws: like `readRows(_:_:)`, and what the sink's row throws while making slots.
    func readRows(_ request: StoreReadRequest, into sink: any StoreRowSink) throws

    /// The number of rows a request selects.
    ///
    /// - Throws: like `readRows(_:_:)`.
    func count(_ request: StoreReadRequest) throws -> Int

    /// The identifiers of the rows a request selects, in its order, each naming its row's own class.
    ///
    /// - Throws: like `readRows(_:_:)`.
    func identifiers(_ request: StoreReadRequest) throws -> [PersistentIdentifier]

    /// The links of a relationship from some of its owners, for relationships whose links the targets' rows do not
    /// hold (see `RelationshipInfo.linksLiveInTargets`): owner and target identifiers. An identifier may name
    /// another class of an inheritance hierarchy than the model's own; the caller matches owners by key.
    /// `editingState` is the reading context's, as `StoreReadRequest.editingState` is.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the owner's entity when the store cannot be read.
    func links(
        of property: Schema.Entity.Property, owner entity: Schema.Entity, owners: [PersistentIdentifier],
        editingState: EditingState?
    ) throws -> [(owner: PersistentIdentifier, target: PersistentIdentifier)]

    /// Runs `body`, whose reads of this store all see one state of it: a change committed meanwhile, by this
    /// program or another, shows in none of them. A batched fetch reads the rows its rows' to-one relationships
    /// refer to this way, so that they are the targets of the rows it read (see `LastKnownValues`).
    ///
    /// The store may hold a connection or lock for the whole of `body`, as it may during `readRows(_:_:)`'s body:
    /// `body` only reads, runs no code of the app, and decodes no attribute (to-one relationships' targets come
    /// without code of the app); it keeps rows with `StoreRow.retained()` and decodes their values after `body`
    /// returns. A store that cannot keep one state across reads runs `body` as it is (the default): each read then
    /// sees the store as it is when that read runs. Inside a `body` of the same store, it runs `body` in that one.
    ///
    /// - Throws: what `body` throws; `SwiftDataError.loadIssueModelContainer` when the store cannot be read.
    func withReadSnapshot<Result>(_ body: () throws -> Result) throws -> Result

    /// True when the store reads a request that carries a cursor (`StoreReadRequest.cursor`) one page at a time
    /// from one cursor it keeps open between pages, every page seeing the store as the first one did. False (the
    /// default) for a store that would read the whole request each time: the context then pages with requests of
    /// its own.
    var readsThroughCursors: Bool { get }
    /// How many models of one fetch a lazy relationship load serves at most (see `FetchGroup`): a store whose reads
    /// cost a round trip to a server loads for more models at once than one that reads a local file. The default is
    /// 100.
    var lazyLoadBatchSize: Int { get }
    /// True when the store orders identifiers (`StoreReadRequest.ordersByIdentifier`, and the rows of equal sort
    /// keys in a sorted read) by their integer primary keys (`PersistentIdentifier.primaryKey`), as the SQL stores
    /// do: a fetch with unsaved changes then reads only the rows its page needs and merges the context's changed and
    /// inserted models into them. False (the default): such a fetch reads every row the predicate selects.
    var ordersIdentifiersByPrimaryKey: Bool { get }

    /// Ends a cursor the context reads no more pages of, releasing what the store keeps open for it: called once
    /// for every cursor the context made, after the last page, or when the enumeration failed or its block threw.
    /// A cursor the store closed already (its last page came back short), or never opened, needs nothing; the
    /// default does nothing.
    func closeCursor(_ cursor: StoreCursor)

    // MARK: Writing

    /// Checks that the store takes changes at all, before any store of a save writes.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the store and a model when the store is read-only.
    func checkAllowsSave(_ changes: StoreChanges) throws

    /// Writes a save's changes without making them visible: the returned save commits them or rolls them back.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the store and the model when the store refuses a
    ///   change; the store is then as it was.
    func beginSave(_ changes: StoreChanges) throws -> any StoreSave

    /// Deletes every row of every entity the store holds, and its history.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the store cannot be written.
    func deleteAllRows() throws

    // MARK: History

    /// The history the store records, one transaction per save that changed it, or nil when it records none.
    var recordedHistory: (any StoreHistory)? { get }

    /// The transactions of a custom store's own type that a descriptor selects, or nil when the store records no
    /// transactions of that type (the built-in stores record `DefaultHistoryTransaction`s: see `recordedHistory`).
    ///
    /// - Throws: what the store throws.
    func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]?

    /// Starts reporting saves that others commit to the store — other processes, other containers — with the
    /// newest token of their transactions, or returns nil when the store cannot tell (a store in memory, which no
    /// one else reaches, or a custom store).
    func watchRemoteChanges(_ onChange: @escaping @Sendable (_ newestToken: Int64) -> Void) -> (any StoreChangeWatch)?

    /// Deletes a custom store's transactions of its own type that a descriptor selects; false when the store
    /// records no transactions of that type.
    ///
    /// - Throws: what the store throws.
    func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool

    // MARK: Contexts

    /// Tells the store that the context of an editing state makes no more requests under it: the context was
    /// released, or took another editing state. Every request a context makes carries its editing state
    /// (`StoreReadRequest.editingState`, `StoreChanges.editingState`), so a store that keeps something per context
    /// learns of a context from its first request, and drops what it keeps here.
    ///
    /// The context tells every store of its container, used or not, once it made a request under the editing
    /// state; it may do so on any thread (a context is released wherever its last reference goes). The default
    /// does nothing.
    func contextDidEnd(_ editingState: EditingState)
}

/// A save a store has written and not yet committed.
package protocol StoreSave: AnyObject {
    /// The store that wrote it.
    var store: any ModelStore { get }
    /// The permanent identifier of the inserted model at a position of the save's inserted models.
    func identifierOfInserted(at position: Int, entity: Schema.Entity) -> PersistentIdentifier
    /// Makes the changes visible.
    ///
    /// - Throws: `SwiftDataError` naming the store when the commit fails; the store is then as it was.
    func commit() throws
    /// Undoes the written changes.
    func rollBack()
    /// What is wrong with a save the store committed anyway (a custom store's defect), or nil: the context then
    /// takes what was written as saved and reports the defect.
    var defect: SwiftDataError? { get }
    /// Rows of saved models whose values the store set while saving (a custom store's `snapshotsToReregister`), by
    /// their permanent identifiers: once the save is applied, the context's models of these rows take the rows'
    /// attribute values as their saved values.
    var reregisteredRows: [any StoreRow] { get }
}

extension StoreSave {
    package var defect: SwiftDataError? { nil }
    package var reregisteredRows: [any StoreRow] { [] }
}

extension ModelStore {
    package func identifierScope(entityName: String) -> IdentifierScope {
        IdentifierScope(storeIdentifier: identifier, entityName: entityName)
    }

    package var recordedHistory: (any StoreHistory)? { nil }

    package func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T]? { nil }

    package func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> Bool { false }

    package func watchRemoteChanges(_ onChange: @escaping @Sendable (_ newestToken: Int64) -> Void) -> (
        any StoreChangeWatch
    )? {
        nil
    }

    /// False: the store reads every request whole, and the context pages with requests of its own.
    package var readsThroughCursors: Bool { false }

    package var lazyLoadBatchSize: Int { 100 }

    package var ordersIdentifiersByPrimaryKey: Bool { false }

    /// Does nothing: the store opens no cursor.
    package func closeCursor(_ cursor: StoreCursor) {}

    /// Does nothing: the store keeps nothing per context.
    package func contextDidEnd(_ editingState: EditingState) {}

    /// Runs `body` as it is: each of its reads sees the store as it is when that read runs (see the requirement).
    package func withReadSnapshot<Result>(_ body: () throws -> Result) throws -> Result {
        try body()
    }

    /// Writes and commits a save's changes in one step, for a save that involves this store alone.
    ///
    /// - Throws: like `beginSave(_:)`, and when the commit fails.
    package func save(_ changes: StoreChanges) throws -> any StoreSave {
        let save = try beginSave(changes)
        do {
            try save.commit()
        } catch {
            save.rollBack()
            throw error
        }
        return save
    }
}

/// Thrown by a store for a part of a fetch it cannot evaluate exactly as Swift does.
package struct StoreCannotEvaluate: Error {
    /// What the store cannot evaluate.
    package enum Part: Sendable {
        /// The predicate: the fetch filters in memory.
        case predicate
        /// The sort: the fetch sorts in memory.
        case sort
    }

    package let part: Part
    /// Why, for the error a fetch that forbids evaluation in memory throws.
    package let reason: String

    package init(part: Part, reason: String) {
        self.part = part
        self.reason = reason
    }
}

/// A predicate in a store's own form (see `ModelStore.filter(for:entity:)`); only its store reads it.
package protocol StoreFilter {
    /// True when the filter reads rows other than the one it tests (a related model's values, a relationship's
    /// members), whose unsaved changes it cannot see: a fetch with unsaved changes then evaluates it in memory.
    var readsOtherRows: Bool { get }
}

extension StoreFilter {
    /// True: a filter that does not say reads as if it could read any row.
    package var readsOtherRows: Bool { true }
}

/// Sort descriptors in a store's own form (see `ModelStore.sortOrder(for:entity:)`); only its store reads it.
package protocol StoreSortOrder {}
