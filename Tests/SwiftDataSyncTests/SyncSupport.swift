import Foundation
import PostgreSQLTestServer
import SwiftData
import SwiftDataPostgreSQL
import SwiftDataSync
import Synchronization
import Testing

/// The sync tests' server: a new database of the PostgreSQL test server, prepared for sync by its owner, with a
/// role of its own for each account a test makes.
struct SyncTestServer {
    /// True when a server is named: the sync suites run only then (`.ci/run` always starts one).
    static var isAvailable: Bool { PostgreSQLTestServer.url != nil }

    /// The database, connected to as its owner.
    let ownerURL: URL
    /// The database, with no user: each engine connects as its account.
    let accountsURL: URL
    private let prefix = "sync_" + String(UUID().uuidString.lowercased().prefix(8)) + "_"

    init() throws {
        ownerURL = try PostgreSQLTestServer.makeDatabase()
        var components = try #require(URLComponents(url: ownerURL, resolvingAgainstBaseURL: false))
        components.queryItems = components.queryItems?.filter { $0.name != "user" }
        accountsURL = try #require(components.url)
        try SyncServer.preparePostgreSQL(url: ownerURL)
    }

    /// Creates the role of a new account, and returns the account's name.
    func makeAccount(_ name: String) throws -> String {
        let role = prefix + name
        try PostgreSQLTestServer.execute("CREATE ROLE \"\(role)\" LOGIN", on: ownerURL)
        return role
    }

    /// The server as the engines reach it.
    var server: SyncServer { .postgreSQL(url: accountsURL) }

    /// The database as an account's role connects to it.
    func url(of account: String) throws -> URL {
        var components = try #require(URLComponents(url: accountsURL, resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "user", value: account)]
        return try #require(components.url)
    }
}

/// A replica's network: up or cut, and able to lose the answer to the next send after the server took it.
final class Network: Sendable {
    private struct State {
        var isUp = true
        var losesNextAnswer = false
    }
    private let state = Mutex(State())

    struct Cut: Error {}

    var isUp: Bool {
        get { state.withLock { $0.isUp } }
        set { state.withLock { $0.isUp = newValue } }
    }

    /// Makes the server take the next send, and the replica not hear that it did.
    func loseNextAnswer() { state.withLock { $0.losesNextAnswer = true } }

    func check() throws { if !isUp { throw Cut() } }

    func takeLostAnswer() -> Bool {
        state.withLock { state in
            defer { state.losesNextAnswer = false }
            return state.losesNextAnswer
        }
    }
}

/// A transport that goes through a `Network`: while it is cut, every call fails.
struct CuttableTransport: SyncTransport {
    let base: any SyncTransport
    let network: Network
    /// Records each fetch returns at most, newest first when `reversesPages`: to make records arrive before the
    /// records they point to.
    var pageLimit: Int?
    var reversesPages = false

    func send(_ records: [SyncRecord], assets: [String: Data]) async throws {
        try network.check()
        try await base.send(records, assets: assets)
        if network.takeLostAnswer() { throw Network.Cut() }
    }

    func fetchChanges(after position: Int64, limit: Int) async throws -> SyncChanges {
        try network.check()
        var changes = try await base.fetchChanges(after: position, limit: pageLimit.map { min($0, limit) } ?? limit)
        if reversesPages { changes.records.reverse() }
        return changes
    }

    func fetchAssets(named names: Set<String>) async throws -> [String: Data] {
        try network.check()
        return try await base.fetchAssets(named: names)
    }

    func waitForChanges(timeout: Double) async throws -> Bool {
        try network.check()
        return try await base.waitForChanges(timeout: timeout)
    }

    func close() async { await base.close() }
}

extension SyncServer {
    /// The server reached through a network a test can cut.
    func through(_ network: Network, pageLimit: Int? = nil, reversesPages: Bool = false) -> SyncServer {
        SyncServer { account in
            try network.check()
            return CuttableTransport(
                base: try await self.makeTransport(account: account), network: network, pageLimit: pageLimit,
                reversesPages: reversesPages)
        }
    }
}

/// The time every replica of a test stamps with: a millisecond later at each reading, so that the order in which
/// a test makes its replicas stamp is the order of their writes.
final class TestClock: Sendable {
    private let milliseconds = Mutex<Int64>(4_000_000_000_000)

    func now() -> Date {
        milliseconds.withLock { value in
            value += 1
            return Date(timeIntervalSince1970: Double(value) / 1000)
        }
    }
}

/// One replica: a store file of its own, a container on it and an engine, which a test can restart as a process
/// that ended would.
final class Replica {
    let storeURL: URL
    let schema: Schema
    let server: SyncServer
    let account: String
    let network = Network()
    let clock: TestClock
    private(set) var container: ModelContainer
    private(set) var engine: SyncEngine

    init(
        _ types: [any PersistentModel.Type] = [SyncFolder.self, SyncNote.self, SyncLabel.self],
        server: SyncServer, account: String, clock: TestClock, pageLimit: Int? = nil, reversesPages: Bool = false
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        storeURL = directory.appendingPathComponent("notes.store")
        schema = Schema(types)
        self.account = account
        self.clock = clock
        self.server = server.through(network, pageLimit: pageLimit, reversesPages: reversesPages)
        (container, engine) = try Self.open(storeURL, schema, self.server, account, clock)
    }

    /// The replica of another one's store files, opened with other model types: an app updated to a newer
    /// schema.
    init(
        reopening other: Replica, as types: [any PersistentModel.Type], server: SyncServer, account: String,
        clock: TestClock
    ) throws {
        storeURL = other.storeURL
        schema = Schema(types)
        self.account = account
        self.clock = clock
        self.server = server.through(network)
        (container, engine) = try Self.open(storeURL, schema, self.server, account, clock)
    }

    /// Ends the replica's process, as far as sync can tell, and starts it again: the container and engine are
    /// released and opened anew on the same files.
    func restart() throws {
        (container, engine) = try Self.open(storeURL, schema, server, account, clock)
    }

    /// A new context on the replica's container.
    func context() -> ModelContext { ModelContext(container) }

    func sync() async throws {
        try await engine.sendChanges()
        try await engine.fetchChanges()
        try await engine.sendChanges()
    }

    func dump() throws -> String { try SwiftDataSyncTests.dump(container) }

    private static func open(
        _ url: URL, _ schema: Schema, _ server: SyncServer, _ account: String, _ clock: TestClock
    ) throws -> (ModelContainer, SyncEngine) {
        let configuration = ModelConfiguration(schema: schema, url: url, cloudKitDatabase: .private("iCloud.test"))
        let container = try ModelContainer(for: schema, configurations: configuration)
        let engine = try SyncEngine(container: container, server: server, account: account, time: clock.now)
        return (container, engine)
    }
}

/// The one model of a type with a uid in a context.
func model<Model: PersistentModel>(_ type: Model.Type, _ uid: String, in context: ModelContext) throws -> Model?
where Model: HasUID {
    try context.fetch(FetchDescriptor<Model>()).first { $0.uid == uid }
}

protocol HasUID: AnyObject { var uid: String { get } }
extension SyncFolder: HasUID {}
extension SyncNote: HasUID {}
extension SyncLabel: HasUID {}
