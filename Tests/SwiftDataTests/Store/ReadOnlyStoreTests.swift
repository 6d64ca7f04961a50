import Foundation
import SwiftData
import Testing

/// What a store opened with `allowsSave: false` refuses.
@Suite struct ReadOnlyStoreTests {
    @Test func eraseOfAReadOnlyStoreThrowsAndKeepsTheRows() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Trip.self, at: url))
            context.insert(Trip(name: "A", destination: "X"))
            try context.save()
        }
        let readOnly = try makeContainer(Trip.self, at: url, allowsSave: false)
        let error = #expect(throws: SwiftDataError.self) { try readOnly.erase() }
        #expect(error == .loadIssueModelContainer)
        #expect(error?.description.contains("allowsSave") == true)
        #expect(try ModelContext(readOnly).fetchCount(FetchDescriptor<Trip>()) == 1)
    }
}
