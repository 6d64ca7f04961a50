// Sorting by names the way the Finder does, as list screens of real apps sort them.
import Foundation
import SwiftData
import Testing

@Model
final class Document {
    var name: String
    var subtitle: String?

    init(name: String, subtitle: String? = nil) {
        self.name = name
        self.subtitle = subtitle
    }
}

@Suite struct LocalizedSortingTests {
    static let names = [
        "file10", "file2", "File1", "élan", "elan", "Zebra", "apple", "Äpfel", "a", "B", "b10", "b9", "x-1", "10",
        "9", "résumé", "Resume",
    ]

    @Test(arguments: [false, true])
    func fetchesSortLikeLocalizedStandardCompareAndSortedUsing(onDisk: Bool) throws {
        let configuration =
            onDisk ? ModelConfiguration(url: try temporaryStoreURL()) : ModelConfiguration(isStoredInMemoryOnly: true)
        let container = try ModelContainer(for: Document.self, configurations: configuration)
        let context = ModelContext(container)
        for (index, name) in Self.names.enumerated() {
            context.insert(Document(name: name, subtitle: index.isMultiple(of: 3) ? nil : name.uppercased()))
        }
        try context.save()

        let fresh = ModelContext(container)
        let all = try fresh.fetch(FetchDescriptor<Document>())
        for order in [SortOrder.forward, .reverse] {
            let byName = SortDescriptor(\Document.name, comparator: .localizedStandard, order: order)
            let fetched = try fresh.fetch(FetchDescriptor<Document>(sortBy: [byName])).map(\.name)
            #expect(fetched == all.sorted(using: byName).map(\.name))
            let expected = Self.names.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            #expect(fetched == (order == .forward ? expected : expected.reversed()))

            let bySubtitle = SortDescriptor(\Document.subtitle, comparator: .localized, order: order)
            let fetchedSubtitles = try fresh.fetch(FetchDescriptor<Document>(sortBy: [bySubtitle, byName]))
            #expect(fetchedSubtitles.map(\.name) == all.sorted(using: [bySubtitle, byName]).map(\.name))
        }

        var limited = FetchDescriptor<Document>(sortBy: [SortDescriptor(\.name, comparator: .localizedStandard)])
        limited.fetchLimit = 3
        let firstThree = Self.names.sorted { $0.localizedStandardCompare($1) == .orderedAscending }.prefix(3)
        #expect(try fresh.fetch(limited).map(\.name) == Array(firstThree))
        #expect(firstThree.first == "9")
    }
}
