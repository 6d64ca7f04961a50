import Foundation
import SwiftData
import Testing

/// Written here and by the StoreWriterHelper process, which declares the same model: keep the two alike.
@Model
final class Tally {
    var writer: String
    var number: Int

    init(writer: String, number: Int) {
        self.writer = writer
        self.number = number
    }
}

@ModelActor
actor TallyWriter {
    func write(_ writer: String, count: Int) throws {
        for number in 0..<count {
            modelContext.insert(Tally(writer: writer, number: number))
            try modelContext.save()
        }
    }
}

@ModelActor
actor TallyReader {
    /// Counts the rows `times` times and reports whether the count never went down.
    func countRepeatedly(_ times: Int) throws -> Bool {
        var last = 0
        for _ in 0..<times {
            let count = try modelContext.fetchCount(FetchDescriptor<Tally>())
            if count < last { return false }
            last = count
        }
        return true
    }
}

/// The pairs (writer, number) stored, and whether any appears twice.
func storedTallies(_ container: ModelContainer) throws -> (count: Int, distinct: Int) {
    let rows = try ModelContext(container).fetch(FetchDescriptor<Tally>())
    return (rows.count, Set(rows.map { "\($0.writer)#\($0.number)" }).count)
}

@Suite struct ContentionTests {
    @Test func manyActorsSavingAndReadingAtOnceLoseAndDuplicateNothing() async throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(Tally.self, at: directory.store())
        let writers = 4
        let saves = 500
        let readersStayedMonotonic = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<writers {
                group.addTask {
                    try await TallyWriter(modelContainer: container).write("w\(index)", count: saves)
                    return true
                }
            }
            for _ in 0..<2 {
                group.addTask { try await TallyReader(modelContainer: container).countRepeatedly(200) }
            }
            var all = true
            for try await result in group { all = all && result }
            return all
        }
        #expect(readersStayedMonotonic)
        let stored = try storedTallies(container)
        #expect(stored.count == writers * saves)
        #expect(stored.distinct == writers * saves)
    }

    @Test func twoProcessesWriteTheSameStoreAndSeeEachOther() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Tally.self, at: url)
        let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("StoreWriterHelper")
        try #require(FileManager.default.isExecutableFile(atPath: helper.path))

        let rows = 500
        let processes = try (0..<2).map { index in
            let process = Process()
            process.executableURL = helper
            process.arguments = [url.path, "process\(index)", "\(rows)"]
            process.standardOutput = Pipe()
            try process.run()
            return process
        }
        try await TallyWriter(modelContainer: container).write("test", count: rows)
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let stored = try storedTallies(container)
        #expect(stored.count == 3 * rows)
        #expect(stored.distinct == 3 * rows)
    }
}
