import SwiftData

/// Runs the mode the first argument names, and returns the exit status; nil when the arguments name no mode.
///
/// - `--default-store`: opens `ModelConfiguration()` (the default location, under `$XDG_DATA_HOME`), saves one
///   `Tally` and prints the store file's path.
func runMode(_ arguments: [String]) -> Int32? {
    guard arguments.count >= 2, arguments[1].hasPrefix("--") else { return nil }
    do {
        switch arguments[1] {
        case "--default-store":
            let configuration = ModelConfiguration()
            let container = try ModelContainer(for: Tally.self, configurations: configuration)
            let context = ModelContext(container)
            context.insert(Tally(writer: "default", number: 0))
            try context.save()
            print(configuration.url.path)
        default:
            print("unknown mode \(arguments[1])")
            return 2
        }
        return 0
    } catch {
        print("error: \(error)")
        return 1
    }
}
