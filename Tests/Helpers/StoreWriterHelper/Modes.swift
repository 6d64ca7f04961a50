import SwiftData

/// Runs the mode the first argument names, and returns the exit status; nil when the arguments name no mode.
///
/// - `--default-store`: opens `ModelConfiguration()` (the default location, under `$XDG_DATA_HOME`), saves one
///   `Tally` and prints the store file's path.
/// - `--open-scans <store path>`: opens a store of `Scan`s, as any program starting up does, and prints how many
///   there are.
/// - `--rewrite-scans <store path> <count>`: saves a new payload into every `Scan`, `count` times, each payload
///   of `Scan.payloadSize` bytes that all hold the save's number (modulo 251).
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
        case "--open-scans" where arguments.count == 3:
            let context = ModelContext(try scanContainer(arguments[2]))
            print(try context.fetchCount(FetchDescriptor<Scan>()))
        case "--rewrite-scans" where arguments.count == 4:
            let context = ModelContext(try scanContainer(arguments[2]))
            for round in 0..<(Int(arguments[3]) ?? 0) {
                for scan in try context.fetch(FetchDescriptor<Scan>()) {
                    scan.payload = Data(repeating: UInt8(round % 251), count: Scan.payloadSize)
                }
                try context.save()
            }
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

/// The same model as `Scan` in ExternalStorageProcessTests: both processes open one store, so the two must stay
/// alike.
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

func scanContainer(_ path: String) throws -> ModelContainer {
    try ModelContainer(for: Scan.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
}
