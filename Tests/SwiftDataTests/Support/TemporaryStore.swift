import Foundation
import SwiftData

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
