import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

@Model
final class PGTally {
    #Unique<PGTally>([\.key])
    var key: String
    var writer: String
    var round: Int

    init(key: String, writer: String, round: Int) {
        self.key = key
        self.writer = writer
        self.round = round
    }
}

/// Processes saving to one database at once, as servers on several machines do.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLMultiProcessTests {
    /// Starts the `PostgreSQLWriterHelper` executable (built beside the tests).
    private func startWriter(url: URL, writer: String, saves: Int, keys: Int) throws -> Process {
        let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("PostgreSQLWriterHelper")
        try #require(FileManager.default.isExecutableFile(atPath: helper.path))
        let process = Process()
        process.executableURL = helper
        process.arguments = [url.absoluteString, writer, String(saves), String(keys)]
        process.standardOutput = Pipe()
        try process.run()
        return process
    }

    @Test func twoProcessesUpsertingTheSameKeysEndWithOneRowEachAndAreHeard() async throws {
        let (container, database) = try makePostgreSQLContainer(PGTally.self)
        let listener = RemoteChangeListener(container)
        let writers = try ["one", "two"].map { try startWriter(url: database, writer: $0, saves: 30, keys: 5) }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
        }
        let context = ModelContext(container)
        let tallies = try context.fetch(FetchDescriptor<PGTally>(sortBy: [SortDescriptor(\.key)]))
        #expect(tallies.map(\.key) == ["k0", "k1", "k2", "k3", "k4"])
        // Every save of both processes is one transaction of the history, authored by its process.
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 60)
        #expect(Set(history.compactMap(\.author)) == ["one", "two"])
        #expect(Set(history.map(\.processIdentifier)) == Set(writers.map { String($0.processIdentifier) }))
        // The container heard of the other processes' saves, up to the last.
        let tokens = try await listener.wait(for: history.last?.token)
        #expect(tokens.contains { $0 == history.last?.token })
    }
}
