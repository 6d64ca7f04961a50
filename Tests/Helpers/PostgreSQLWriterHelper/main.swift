import Foundation
import SwiftData
import SwiftDataPostgreSQL

/// One model a test process and this program save alike: the same class name and properties make the same schema.
@Model
final class PGTally {
    #Unique<PGTally>([\.key])
    var key: String
    var writer: String
    var round: Int

    init(key: String, writer: String, round: Int) {
        self.key = key
        self.writer = writer
        self.round = round
    }
}

// Usage: PostgreSQLWriterHelper <connection URI> <writer> <saves> <distinct keys>
// Saves `saves` tallies, one save each, with the keys k0… cycling through `distinct keys` values: every save
// after the first round overwrites a row, its own or another writer's.
let arguments = CommandLine.arguments
guard arguments.count == 5, let url = URL(string: arguments[1]), let saves = Int(arguments[3]),
    let keys = Int(arguments[4]), keys > 0
else {
    print("usage: PostgreSQLWriterHelper <connection URI> <writer> <saves> <distinct keys>")
    exit(2)
}
do {
    let container = try ModelContainer(for: PGTally.self, configurations: PostgreSQLConfiguration(url: url))
    let context = ModelContext(container)
    context.author = arguments[2]
    for round in 0..<saves {
        context.insert(PGTally(key: "k\(round % keys)", writer: arguments[2], round: round))
        try context.save()
    }
} catch {
    print("error: \(error)")
    exit(1)
}
