/// A command's arguments: positional ones in order, and `--name value` options and `--flag` flags.
struct ArgumentList {
    private var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    private let command: String

    /// Reads arguments; every `--name` takes the next argument as its value unless it is one of `flagNames`.
    init(_ arguments: [String], command: String, flagNames: Set<String> = ["--json"]) {
        self.command = command
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--") {
                if flagNames.contains(argument) {
                    flags.insert(argument)
                } else if index + 1 < arguments.count {
                    options[argument] = arguments[index + 1]
                    index += 1
                } else {
                    options[argument] = ""
                }
            } else {
                positional.append(argument)
            }
            index += 1
        }
    }

    /// The positional arguments, exactly `names.count` of them.
    func positional(_ names: String...) throws -> [String] {
        guard positional.count == names.count else {
            throw UsageError("'\(command)' takes \(names.joined(separator: " ")), got \(positional.count) argument(s)")
        }
        return positional
    }

    /// An option's value, nil when absent; only the given option names are accepted.
    func option(_ name: String) -> String? { options[name] }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Throws for an option or flag that is not one of `known`.
    func accept(only known: Set<String>) throws {
        for name in Set(options.keys).union(flags) where !known.contains(name) {
            throw UsageError("'\(command)' has no option \(name)")
        }
        for (name, value) in options where value.isEmpty {
            throw UsageError("\(name) needs a value")
        }
    }
}
