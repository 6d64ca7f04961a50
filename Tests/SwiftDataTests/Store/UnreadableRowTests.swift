import Foundation
import Testing

@testable import SwiftData

/// A row another program wrote with a value its property's type cannot hold.
@Suite struct UnreadableRowTests {
    /// A store of three gadgets whose second row (key 2) holds text in the integer column `serial`. The rows are
    /// found by key: the `sqlite3` tool lacks the collation SwiftData compares text with.
    private func storeWithABrokenRow(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Gadget.self, at: url))
            for serial in 1...3 { context.insert(Gadget(name: "g\(serial)", serial: serial)) }
            try context.save()
        }
        try runSQLite(url, "UPDATE Gadget SET serial = 'two' WHERE rowid = 2")
        return url
    }

    /// A context that holds no model decodes each row straight from SQLite; one that holds a model reads the rows
    /// first. Either way the fetch fails with `loadIssueModelContainer` naming the property, registers no model of
    /// it, and leaves the store readable: once the row is mended, the same context fetches every row.
    @Test(arguments: [false, true])
    func aStoredValueThatDoesNotFitItsTypeFailsTheFetchAndRegistersNothing(contextHoldsAModel: Bool) throws {
        let directory = try TemporaryDirectory()
        let url = try storeWithABrokenRow(in: directory)
        let context = ModelContext(try makeContainer(Gadget.self, at: url))
        var held: [Gadget] = []
        if contextHoldsAModel {
            held = try context.fetch(FetchDescriptor<Gadget>(predicate: #Predicate { $0.name == "g1" }))
            #expect(held.map(\.serial) == [1])
        }

        let error = #expect(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Gadget>()) }
        #expect(error == .loadIssueModelContainer)
        #expect(error?.description.contains("Gadget.serial") == true)
        #expect(context.registered.count == held.count)

        try runSQLite(url, "UPDATE Gadget SET serial = 2 WHERE rowid = 2")
        let all = try context.fetch(FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.serial)]))
        #expect(all.map(\.name) == ["g1", "g2", "g3"])
        #expect(all.map(\.serial) == [1, 2, 3])
        #expect(held.allSatisfy { model in all.contains { $0 === model } })
    }
}
