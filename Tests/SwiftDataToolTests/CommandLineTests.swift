import Foundation
import SwiftData
import SwiftDataTool
import Testing

/// Help, usage errors, and files that are not stores.
@Suite struct CommandLineTests {
    @Test(arguments: ["inspect", "dump", "check", "export", "import"])
    func everyCommandHasHelp(command: String) {
        let result = runTool(command, "--help")
        #expect(result.output.hasPrefix("usage: swiftdata \(command)"))
        #expect(runTool("--help").output.contains("  \(command) "))
    }

    @Test func aCommandLineThatCannotBeUnderstoodExitsWithTwo() {
        #expect(runTool("frobnicate", status: 2).errors.contains("unknown command 'frobnicate'"))
        #expect(runTool("inspect", status: 2).errors.contains("'inspect' takes STORE, got 0 argument(s)"))
        #expect(
            runTool("inspect", "a", "--verbose", "x", status: 2).errors.contains("'inspect' has no option --verbose"))
    }

    /// The tool refuses what the library refuses, with the library's error, and leaves the file as it was.
    @Test func filesThatAreNotStoresAreRefusedUntouched() throws {
        let store = try OutingStore()
        let text = store.path("notes.txt")
        try Data("just notes\n".utf8).write(to: URL(fileURLWithPath: text))
        let result = runTool("inspect", text, status: 1)
        #expect(result.errors.contains("loadIssueModelContainer"))
        #expect(result.errors.contains("is not a SQLite database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == Data("just notes\n".utf8))
        #expect(runTool("check", store.path("absent.store"), status: 1).errors.contains("there is no store at"))
    }
}
