internal import Foundation

/// The `swiftdata` command: inspects, queries, checks, exports and imports SwiftData stores from the terminal.
///
/// ```
/// swiftdata inspect projects.store
/// swiftdata dump projects.store Projekti --where 'onValmis == false' --sort nimi --json
/// swiftdata check projects.store
/// swiftdata export projects.store projects.json
/// swiftdata import projects.json copy.store
/// ```
///
/// `run(_:)` does the work and returns what the command prints and its exit status, so tests call it directly;
/// the executable only prints the result.
public enum SwiftDataTool {
    /// What a command printed and how it ended.
    public struct Result: Sendable, Equatable {
        /// The text for standard output.
        public var output: String
        /// The text for standard error.
        public var errors: String
        /// The exit status: 0 for success (for `check`, a healthy store), 1 for a failure or an unhealthy store,
        /// 2 for a command line that cannot be understood.
        public var status: Int32
    }

    /// Runs a command line (without the program's name).
    public static func run(_ arguments: [String]) -> Result {
        var output = ToolOutput()
        let status: Int32
        do {
            status = try dispatch(arguments, output: &output)
        } catch let error as UsageError {
            output.error("\(error.message)\nRun 'swiftdata --help' for the commands, or 'swiftdata COMMAND --help'.")
            status = 2
        } catch {
            output.error("\(error)")
            status = 1
        }
        return Result(output: output.text, errors: output.errorText, status: status)
    }

    private static func dispatch(_ arguments: [String], output: inout ToolOutput) throws -> Int32 {
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            output.line(help)
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            throw UsageError("unknown command '\(name)'")
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            output.line(command.help)
            return 0
        }
        return try command.run(ArgumentList(rest, command: command.name), &output)
    }

    private struct Command: Sendable {
        let name: String
        let summary: String
        let help: String
        let run: @Sendable (ArgumentList, inout ToolOutput) throws -> Int32
    }

    private static let commands: [Command] = [
        Command(name: "inspect", summary: "describe a store: schema, rows, files", help: InspectCommand.help) {
            try InspectCommand.run($0, output: &$1)
        },
        Command(name: "dump", summary: "print an entity's rows as a table or JSON lines", help: DumpCommand.help) {
            try DumpCommand.run($0, output: &$1)
        },
        Command(name: "check", summary: "check a store's health", help: CheckCommand.help) {
            try CheckCommand.run($0, output: &$1)
        },
        Command(name: "export", summary: "write a whole store as JSON", help: ExportCommand.exportHelp) {
            try ExportCommand.export($0, output: &$1)
        },
        Command(name: "import", summary: "make a new store from an export", help: ExportCommand.importHelp) {
            try ExportCommand.import($0, output: &$1)
        },
    ]

    private static var help: String {
        let width = commands.map(\.name.count).max() ?? 0
        let list = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            usage: swiftdata COMMAND [ARGUMENTS]

            Inspects, queries, checks, exports and imports SwiftData stores. STORE is the path of a store file.
            Stores are opened read-only, except by 'import', which writes a new one; no command migrates a store.

            commands:
            \(list.joined(separator: "\n"))

            Run 'swiftdata COMMAND --help' for a command's arguments.
            """
    }
}

/// A command line that cannot be understood.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A failure the command reports and exits with status 1 for.
struct ToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a command prints, gathered for `SwiftDataTool.Result`.
struct ToolOutput {
    private(set) var text = ""
    private(set) var errorText = ""

    mutating func line(_ line: String = "") { text += line + "\n" }
    mutating func error(_ line: String) { errorText += "swiftdata: " + line + "\n" }
}
