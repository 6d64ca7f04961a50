import Foundation
import SwiftData
import Testing

/// Where a configuration without a URL keeps its store: a directory of the program's own under `$XDG_DATA_HOME`.
@Suite struct DefaultLocationTests {
    /// The name of this test program's executable.
    var executableName: String { URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent }

    @Test func theDefaultStoreLivesInADirectoryNamedAfterTheProgram() {
        let url = ModelConfiguration().url
        #expect(url.lastPathComponent == "default.store")
        #expect(url.deletingLastPathComponent().lastPathComponent == executableName)
        let named = ModelConfiguration("Projects").url
        #expect(named.lastPathComponent == "Projects.store")
        #expect(named.deletingLastPathComponent() == url.deletingLastPathComponent())
    }

    @Test func aGroupContainerIsSharedByEveryProgram() {
        let url = ModelConfiguration("Projects", groupContainer: .identifier("group.example")).url
        #expect(url.lastPathComponent == "Projects.store")
        #expect(url.deletingLastPathComponent().lastPathComponent == "group.example")
        #expect(url.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent == "SwiftDataGroups")
        #expect(!url.path.contains("/\(executableName)/"))
    }

    /// Another program, given the same `$XDG_DATA_HOME`, creates its default store in its own directory.
    @Test func twoProgramsDoNotShareADefaultStore() throws {
        let directory = try TemporaryDirectory()
        let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("StoreWriterHelper")
        try #require(FileManager.default.isExecutableFile(atPath: helper.path))
        let process = Process()
        let output = Pipe()
        process.executableURL = helper
        process.arguments = ["--default-store"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = directory.url.path
        process.environment = environment
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        let expected = directory.url.appendingPathComponent("StoreWriterHelper/default.store").path
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
        #expect(FileManager.default.fileExists(atPath: expected))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("default.store").path))
    }
}
