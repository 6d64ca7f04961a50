import SwiftData

// A second process for the two-process tests: opens the store given as the first argument and inserts rows, one
// save each, so that it contends with the test process for the store's write lock.
//
// Usage: StoreWriterHelper <store path> <writer name> <row count>
//        StoreWriterHelper --<mode> … (see Modes.swift)

/// The same model as `Tally` in ContentionTests: both processes open one store, so the two must stay alike. They
/// cannot share a declaration, since this executable does not link the test target.
@Model
final class Tally {
    var writer: String
    var number: Int

    init(writer: String, number: Int) {
        self.writer = writer
        self.number = number
    }
}

let arguments = CommandLine.arguments
// Other modes, named by a first argument that starts with "--" (see Modes.swift).
if let status = runMode(arguments) { exit(status) }
guard arguments.count == 4, let count = Int(arguments[3]) else {
    print("usage: StoreWriterHelper <store path> <writer name> <row count>")
    exit(2)
}
do {
    let container = try ModelContainer(
        for: Tally.self,
        configurations: ModelConfiguration(url: URL(fileURLWithPath: arguments[1]))
    )
    let context = ModelContext(container)
    for number in 0..<count {
        context.insert(Tally(writer: arguments[2], number: number))
        try context.save()
    }
    print(try context.fetchCount(FetchDescriptor<Tally>()))
} catch {
    print("error: \(error)")
    exit(1)
}
