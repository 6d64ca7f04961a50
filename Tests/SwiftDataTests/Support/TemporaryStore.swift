import Foundation
import SwiftData
import Testing

/// A unique directory under the system's temporary directory, for one test's store files.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of a store file in this directory.
    func store(_ name: String = "test.store") -> URL { url.appendingPathComponent(name) }
}

/// Opens a container on a store file.
func makeContainer(
    _ types: any PersistentModel.Type...,
    at url: URL,
    allowsSave: Bool = true
) throws -> ModelContainer {
    try ModelContainer(for: Schema(types), configurations: ModelConfiguration(url: url, allowsSave: allowsSave))
}

/// Opens a container whose store lives in memory.
func makeInMemoryContainer(_ types: any PersistentModel.Type...) throws -> ModelContainer {
    try ModelContainer(for: Schema(types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
}

/// Runs the `StoreWriterHelper` executable (built beside the tests) to completion: it opens the store at `url` and
/// saves `count` `Tally` rows written by `writer`, one save each. Returns the finished process, for its status and
/// identifier.
func runStoreWriter(at url: URL, writer: String, count: Int) throws -> Process {
    let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("StoreWriterHelper")
    try #require(FileManager.default.isExecutableFile(atPath: helper.path))
    let process = Process()
    process.executableURL = helper
    process.arguments = [url.path, writer, String(count)]
    process.standardOutput = Pipe()
    try process.run()
    process.waitUntilExit()
    return process
}
