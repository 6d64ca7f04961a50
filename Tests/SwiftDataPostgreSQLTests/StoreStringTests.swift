import Foundation
import SwiftData
import Testing

/// Strings in predicates and sorts compare as Swift compares them, on each store: canonically equivalent strings
/// are equal, and the order is `sorted(using:)`'s.
@Suite struct StoreStringTests {
    @Test(arguments: TestedStore.available)
    func stringsCompareAsSwiftComparesThem(store: TestedStore) throws {
        let container = try store.makeContainer(PGTrip.self)
        let context = ModelContext(container)
        // "é" precomposed and decomposed are one string to Swift.
        for (code, name) in [("A", "caf\u{E9}"), ("B", "cafe\u{301}"), ("C", "cafe"), ("D", "Zebra"), ("E", "apple")] {
            context.insert(PGTrip(code: code, name: name))
        }
        try context.save()
        let reader = ModelContext(container)
        let target = "caf\u{E9}"
        let equal = try reader.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.name == target }))
        #expect(equal.map(\.code).sorted() == ["A", "B"])
        let different = try reader.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.name != target }))
        #expect(different.map(\.code).sorted() == ["C", "D", "E"])
        let all = try reader.fetch(FetchDescriptor<PGTrip>())
        let below = try reader.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.name < target }))
        #expect(below.map(\.code).sorted() == all.filter { $0.name < target }.map(\.code).sorted())
        let sort = [SortDescriptor(\PGTrip.name), SortDescriptor(\.code)]
        let sorted = try reader.fetch(FetchDescriptor<PGTrip>(sortBy: sort))
        #expect(sorted.map(\.code) == all.sorted(using: sort).map(\.code))
        let reversed = [SortDescriptor(\PGTrip.name, order: .reverse), SortDescriptor(\.code)]
        #expect(
            try reader.fetch(FetchDescriptor<PGTrip>(sortBy: reversed)).map(\.code)
                == all.sorted(using: reversed).map(\.code))
        // `contains` over characters runs in memory, with Swift's answer.
        let containing = try reader.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.name.contains("e") }))
        #expect(containing.map(\.code).sorted() == all.filter { $0.name.contains("e") }.map(\.code).sorted())
    }
}
