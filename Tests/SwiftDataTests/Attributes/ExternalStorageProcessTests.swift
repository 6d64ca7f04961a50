import Foundation
import Testing

@testable import SwiftData

/// Written here and by the StoreWriterHelper process, which declares the same model: keep the two alike.
@Model
final class Scan {
    var number: Int
    @Attribute(.externalStorage) var payload: Data

    /// Large enough to live in a file of its own.
    static let payloadSize = 200_000

    init(number: Int, payload: Data) {
        self.number = number
        self.payload = payload
    }
}

/// External-storage files with two processes on one store: neither loses a file the other has committed or is
/// about to commit.
@Suite struct ExternalStorageProcessTests {
    var helper: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("StoreWriterHelper")
    }

    func startHelper(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = helper
        process.arguments = arguments
        process.standardOutput = Pipe()
        try process.run()
        return process
    }

    /// A store of scans, whose payloads live in files.
    func makeStore(in directory: TemporaryDirectory, scans: Int = 1) throws -> URL {
        let url = directory.store()
        let context = ModelContext(try makeContainer(Scan.self, at: url))
        for number in 0..<scans {
            context.insert(Scan(number: number, payload: Data(repeating: 7, count: Scan.payloadSize)))
        }
        try context.save()
        return url
    }

    /// Another process opening the store while a save is under way (its file written, its row not committed yet)
    /// must not remove that file as unreferenced.
    @Test func openingAStoreKeepsTheFileOfASaveNotCommittedYet() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: helper.path))
        let directory = try TemporaryDirectory()
        let url = try makeStore(in: directory)
        let files = directory.url.appendingPathComponent(".test_SUPPORT/_EXTERNAL_DATA")

        // A save in flight, as SwiftData makes it: the write lock taken, the file written, the row not committed.
        let connection = try SQLiteConnection(path: url.path, readOnly: false, log: SQLiteStatementLog())
        try connection.execute("BEGIN IMMEDIATE")
        let payload = Data(repeating: 9, count: Scan.payloadSize)
        try payload.write(to: files.appendingPathComponent("in-flight"))

        let opener = try startHelper(["--open-scans", url.path])
        // Give the other process time to open the store; it may wait for the write lock meanwhile.
        for _ in 0..<60 where opener.isRunning { try await _Concurrency.Task.sleep(for: .milliseconds(50)) }
        try connection.execute(
            "INSERT INTO Scan (_pk, number, payload) VALUES (1000, 1, '\(ExternalDataStore.prefix)in-flight'); COMMIT")
        opener.waitUntilExit()
        #expect(opener.terminationStatus == 0)

        #expect(FileManager.default.fileExists(atPath: files.appendingPathComponent("in-flight").path))
        let context = ModelContext(try makeContainer(Scan.self, at: url))
        let scans = try context.fetch(FetchDescriptor<Scan>(sortBy: [SortDescriptor(\.number)]))
        #expect(scans.map(\.number) == [0, 1])
        #expect(scans.last?.payload == payload)
    }

    /// While another process replaces a payload over and over (each save writes a new file and removes the old
    /// one once it commits), every read here gets a whole payload of one save, and no read fails.
    @Test func readsWhileAnotherProcessReplacesFilesAlwaysGetAWholeValue() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: helper.path))
        let directory = try TemporaryDirectory()
        // Many files per read, so that reading them takes long enough for the other process's saves to land
        // in between.
        let url = try makeStore(in: directory, scans: 20)
        let container = try makeContainer(Scan.self, at: url)

        let writer = try startHelper(["--rewrite-scans", url.path, "60"])
        var reads = 0
        var failures: [String] = []
        while writer.isRunning {
            do {
                let scans = try ModelContext(container).fetch(FetchDescriptor<Scan>())
                #expect(scans.count == 20)
                // A file is written whole before it is renamed into place, so its ends tell a torn value.
                for payload in scans.map(\.payload)
                where payload.count != Scan.payloadSize || payload.first != payload.last {
                    failures.append("a payload of \(payload.count) bytes is torn")
                }
            } catch {
                failures.append("\(error)")
            }
            reads += 1
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(reads > 0)
        #expect(failures.isEmpty, "\(failures.count) of \(reads) reads failed; first: \(failures.first ?? "")")
    }

    /// A process stopped at any point of its saves leaves every committed row's file in place, and the files of the
    /// save it did not finish go when the store next opens.
    @Test func aProcessStoppedMidSaveLosesNoCommittedFileAndLeavesNoOrphan() throws {
        try #require(FileManager.default.isExecutableFile(atPath: helper.path))
        let directory = try TemporaryDirectory()
        let url = try makeStore(in: directory, scans: 5)
        // More rounds than it can finish in any run of the suite: it is always stopped mid-way.
        let writer = try startHelper(["--rewrite-scans", url.path, "1000000"])
        // A blocking sleep: an asynchronous one may resume much later while the other tests keep every thread of
        // the pool busy.
        usleep(700_000)
        #expect(writer.isRunning, "the helper ended before it was stopped: \(writer.terminationStatus)")
        // SIGKILL, which no signal mask inherited from this process can hold off, stops it wherever it is.
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        #expect(writer.terminationReason == .uncaughtSignal)

        let context = ModelContext(try makeContainer(Scan.self, at: url))
        let payloads = try context.fetch(FetchDescriptor<Scan>()).map(\.payload)
        #expect(payloads.count == 5)
        #expect(payloads.allSatisfy { $0.count == Scan.payloadSize && $0.first == $0.last })
        let files = directory.url.appendingPathComponent(".test_SUPPORT/_EXTERNAL_DATA")
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).count == 5)
    }
}
