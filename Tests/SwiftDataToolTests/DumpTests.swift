import Foundation
import SwiftData
import SwiftDataTool
import Testing

@Suite struct DumpTests {
    @Test func dumpPrintsRowsWithRelationshipsAsKeys() throws {
        let store = try OutingStore()
        #expect(
            runTool("dump", store.url.path, "Companion", "--sort", "-name").output == """
                _pk | name | outings
                2 | Bo | [1, 2]
                1 | Ann | [1]
                (2 rows)

                """)
        #expect(
            runTool("dump", store.url.path, "Guide", "--json").output == """
                {"_pk":1,"name":"Ida","outings":[1]}

                """)
    }

    /// The filter language selects what the same predicate selects in Swift: strings by canonical equivalence,
    /// `!=` true for nil, `contains` as `String.contains`; values are bound, so quotes are just characters.
    @Test func whereSortAndLimitSelectAsSwiftWould() throws {
        let store = try OutingStore()
        func titles(_ arguments: String...) -> [String] {
            let lines = runTool(["dump", store.url.path, "Outing", "--json"] + arguments).output.split(separator: "\n")
            return lines.compactMap { line in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["title"] as? String
            }
        }
        #expect(titles("--where", "place.city == \"Zu\u{308}rich \u{E9}\"", "--sort", "title") == ["Alps", "Lake"])
        #expect(titles("--where", "place.zip != 8000") == ["Alps"])
        #expect(titles("--where", "place.zip == nil || count > 1 && isDone == false") == ["Alps"])
        #expect(titles("--where", "!(title contains \"ak\")") == ["Alps"])
        #expect(titles("--where", "title startsWith \"Al\"") == ["Alps"])
        #expect(titles("--where", "title == \"x\\\" OR 1=1 --\"") == [])
        #expect(titles("--sort", "-title", "--limit", "1") == ["Lake"])
        #expect(titles("--sort", "count") == ["Lake", "Alps"])
    }

    @Test func mistakesInTheFilterAreReported() throws {
        let store = try OutingStore()
        func error(_ filter: String) -> String {
            runTool("dump", store.url.path, "Outing", "--where", filter, status: 1).errors
        }
        #expect(error("nope == 1").contains("no column 'nope'"))
        #expect(error("title == \"open").contains("a string is not closed"))
        #expect(error("(count > 1").contains("a '(' is not closed"))
        #expect(error("count < nil").contains("nil can only be compared with == and !="))
        #expect(
            runTool("dump", store.url.path, "Nothing", status: 1).errors.contains("the store has no entity 'Nothing'"))
    }
}
