internal import Foundation
public import SwiftData

/// Syncs a container's models with every other replica of an account, through a server: the part CloudKit plays
/// for SwiftData on Apple platforms.
///
/// Each replica keeps its own store and works offline. The engine sends what the replica's saves changed (read
/// from the store's history, so a save made while offline, or just before the process ended, is sent later) and
/// applies what other replicas sent. Replicas converge: once all have sent and fetched, all hold the same models.
///
/// ```swift
/// let configuration = ModelConfiguration(url: storeURL, cloudKitDatabase: .private("iCloud.com.example.notes"))
/// let container = try ModelContainer(for: Note.self, configurations: configuration)
/// let engine = try SyncEngine(container: container, server: .postgreSQL(url: serverURL), account: "alice")
/// try await engine.sendChanges()
/// try await engine.fetchChanges()
/// // Or: await engine.startAutomaticSync()
/// ```
///
/// ## Merging
///
/// Each field of a model merges on its own: of two writes of one field, the later by a hybrid logical clock
/// (``SyncTimestamp``) is kept on every replica, and concurrent writes of different fields both survive. A deletion
/// wins over every edit made concurrently with it, as CloudKit's does. A to-many relationship merges per member:
/// members added and removed on different replicas all count. A record that points to a record this replica has
/// not received yet is held, and applied once its target arrives.
///
/// ## What syncs
///
/// The first configuration of the container whose `cloudKitDatabase` is not `.none` syncs; its store must be a
/// file. Its models must follow CloudKit's rules: no unique constraints, every attribute optional or with a default
/// value, every relationship optional, no `.deny` delete rule. Creating the engine checks them and throws
/// ``SyncError/schemaNotSyncable`` naming each property that breaks one.
///
/// The engine keeps what it needs to remember in a file beside the store (the store's path with `-sync` added).
/// Changes it applies are saved with the author ``author``, so a `HistoryObserver` or a history fetch tells them
/// from the app's own; they reach the container's other contexts as any other context's save does.
///
/// One engine syncs a store at a time.
public actor SyncEngine {
    /// The author of the transactions that apply other replicas' changes.
    public static let author = "SwiftDataSync"

    /// The container whose models sync.
    public nonisolated let container: ModelContainer
    /// The account whose records the engine syncs.
    public nonisolated let account: String

    nonisolated let server: SyncServer
    /// The identifier of the store that syncs.
    let storeIdentifier: String
    /// True while a send or fetch runs: another waits for it (`waiters`), so two never interleave.
    var isSyncing = false
    var waiters: [CheckedContinuation<Void, Never>] = []
    var transport: (any SyncTransport)?
    let metadata: SyncMetadata
    let schema: SyncSchema
    var clock: HybridLogicalClock
    /// The time stamps are made at; nil for each transaction's own time.
    let fixedTime: (@Sendable () -> Date)?
    var historyToken: DefaultHistoryToken?
    var position: Int64
    var automaticSync: AutomaticSync?
    var automaticFailures = 0
    /// Makes the next apply stop right after its save, before the engine records it, as a process that ended
    /// there would: for tests of what the next run does with such a save.
    package var interruptsNextApplyAfterSaving = false

    /// Creates the engine of a container for an account.
    ///
    /// Nothing is sent or fetched until ``sendChanges()``, ``fetchChanges()`` or ``startAutomaticSync()``.
    ///
    /// - Parameters:
    ///   - container: The container whose synced configuration's models sync.
    ///   - server: The server that keeps the account's records.
    ///   - account: The account; on PostgreSQL, the database role the engine connects as.
    /// - Throws: ``SyncError/schemaNotSyncable`` when a model breaks CloudKit's rules;
    ///   ``SyncError/noSyncedStore`` when no configuration syncs to a file; an error of SQLite's when the engine's
    ///   file beside the store cannot be opened.
    public init(container: ModelContainer, server: SyncServer, account: String) throws {
        try self.init(container: container, server: server, account: account, time: nil)
    }

    /// Creates an engine whose stamps take their time from `time` rather than each save's own time, so tests say
    /// which of two writes is the later.
    package init(
        container: ModelContainer, server: SyncServer, account: String, time: (@Sendable () -> Date)?
    ) throws {
        let context = ModelContext(container)
        guard let configuration = context.modelConfigurations.first(where: { $0.cloudKitDatabase != .none }) else {
            throw SyncError.noSyncedStore("every configuration's cloudKitDatabase is .none")
        }
        guard !configuration.isStoredInMemoryOnly else {
            throw SyncError.noSyncedStore(
                "the synced configuration is stored in memory; a replica's store must be a file, so it remembers "
                    + "what it sent")
        }
        // The entities of the synced configuration's store, and that store's history only.
        guard let storeIdentifier = context.storeIdentifier(of: configuration) else {
            throw SyncError.noSyncedStore("the synced configuration holds no model")
        }
        let entities = context.modelEntities.filter {
            context.storeIdentifier(ofEntityNamed: $0.name) == storeIdentifier
        }
        let violations = SyncSchema.violations(in: entities)
        guard violations.isEmpty else { throw SyncError.schemaNotSyncable(violations) }
        let schema = SyncSchema(entities: entities)
        let metadata = try SyncMetadata(path: configuration.url.path + "-sync")
        let replica: String
        if let known = try metadata.state(StateKey.replica) {
            replica = known
        } else {
            replica = UUID().uuidString
            try metadata.setState(StateKey.replica, replica)
        }
        var position = try metadata.state(StateKey.position).flatMap { Int64($0) } ?? 0
        if try metadata.state(StateKey.schema) != schema.signature {
            // Records fetched while a field or entity was unknown here hold values this schema now keeps.
            position = 0
            try metadata.inTransaction {
                try metadata.setState(StateKey.position, "0")
                try metadata.setState(StateKey.schema, schema.signature)
            }
        }
        self.container = container
        self.storeIdentifier = storeIdentifier
        self.account = account
        self.server = server
        self.metadata = metadata
        self.schema = schema
        self.fixedTime = time
        self.position = position
        self.clock = HybridLogicalClock(
            replica: replica, latest: try metadata.state(StateKey.clock).flatMap(SyncTimestamp.init))
        self.historyToken = try metadata.state(StateKey.historyToken).flatMap {
            try? JSONDecoder().decode(DefaultHistoryToken.self, from: Data($0.utf8))
        }
    }

    deinit {
        if let automaticSync {
            NotificationCenter.default.removeObserver(automaticSync.observer.observer)
            automaticSync.wakeUps.finish()
            automaticSync.rounds.cancel()
            automaticSync.listening.cancel()
        }
    }

    // MARK: - Syncing

    /// Sends every change the replica's saves made that the server does not have yet, and returns once the
    /// server has them.
    ///
    /// - Throws: ``SyncError/offline`` when the server cannot be reached (what was not sent is sent by the next
    ///   call); ``SyncError/unreadableRecord`` when the server's copy of a record cannot be read; what the store
    ///   throws when it cannot be read.
    public func sendChanges() async throws {
        await enterSync()
        defer { leaveSync() }
        try await sendPendingChanges()
    }

    /// Fetches and applies every change other replicas sent since the last fetch.
    ///
    /// Each batch of records is applied in one save, whose author is ``author``. Local changes not sent yet are
    /// kept where they are later than the fetched ones, and sent by the next ``sendChanges()``.
    ///
    /// - Throws: ``SyncError/offline`` when the server cannot be reached; ``SyncError/unreadableRecord`` when a
    ///   record holds a value that is not of its property's type, or names a model of another entity;
    ///   ``SyncError/busyStore`` when other contexts kept saving the store while the engine applied; what the store
    ///   throws when a save fails. In each case nothing of the batch was applied, and the next fetch tries it again.
    public func fetchChanges() async throws {
        await enterSync()
        defer { leaveSync() }
        try await fetchNewChanges()
    }

    // MARK: - Internal

    func sendPendingChanges() async throws {
        let context = makeContext()
        try stampLocalChanges(in: context, applied: nil)
        let names = try metadata.pendingRecordNames(limit: .max)
        guard !names.isEmpty else { return }
        let transport = try await connectedTransport()
        for start in stride(from: 0, to: names.count, by: Self.batchSize) {
            let batch = try pendingRecords(Array(names[start..<min(start + Self.batchSize, names.count)]), in: context)
            do {
                try await transport.send(batch.records, assets: batch.assets)
            } catch let error as SyncError {
                throw error
            } catch {
                await dropTransport()
                throw SyncError.offline(error)
            }
            try metadata.inTransaction {
                for (name, field, timestamp) in batch.sentFields {
                    try metadata.clearPending(field, of: name, at: timestamp)
                }
                for name in batch.sentDeletions { try metadata.clearPendingDeletion(of: name) }
            }
        }
    }

    func fetchNewChanges() async throws {
        let transport = try await connectedTransport()
        while true {
            let changes: SyncChanges
            do {
                changes = try await transport.fetchChanges(after: position, limit: Self.batchSize)
            } catch let error as SyncError {
                throw error
            } catch {
                await dropTransport()
                throw SyncError.offline(error)
            }
            try await apply(changes.records, through: changes.position, from: transport)
            if !changes.hasMore { break }
        }
    }

    static let batchSize = 200

    /// Waits until no other send or fetch runs, then marks one running.
    func enterSync() async {
        guard isSyncing else {
            isSyncing = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Lets the next waiting send or fetch run.
    func leaveSync() {
        if waiters.isEmpty {
            isSyncing = false
        } else {
            waiters.removeFirst().resume()
        }
    }

    /// Sets `interruptsNextApplyAfterSaving`.
    package func interruptNextApplyAfterSaving() { interruptsNextApplyAfterSaving = true }

    /// The error of an apply that `interruptsNextApplyAfterSaving` stopped.
    package struct Interrupted: Error {}

    enum StateKey {
        static let replica = "replica"
        static let clock = "clock"
        static let historyToken = "historyToken"
        static let position = "position"
        static let schema = "schema"
    }

    /// A context for one send or apply: it reads the store as it is now.
    func makeContext() -> ModelContext {
        let context = ModelContext(container)
        context.author = Self.author
        context.autosaveEnabled = false
        return context
    }

    func connectedTransport() async throws -> any SyncTransport {
        if let transport { return transport }
        do {
            let made = try await server.connect(account)
            transport = made
            return made
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.offline(error)
        }
    }

    /// Forgets a transport that failed; the next sync connects again.
    func dropTransport() async {
        await transport?.close()
        transport = nil
    }

    func saveClock() throws {
        try metadata.setState(StateKey.clock, clock.latest.description)
    }
}
