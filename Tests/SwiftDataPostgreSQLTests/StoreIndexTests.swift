import Foundation
import SwiftData
import Testing

/// `#Index` and `#Unique` make indexes in each store, and fetches over the indexed attributes select and order
/// what Swift does.
@Suite struct StoreIndexTests {
    @Test(arguments: TestedStore.available)
    func declaredIndexesExistInTheStore(store: TestedStore) throws {
        let location = try store.makeLocation()
        let context = ModelContext(try store.container(PGContact.self, at: location))
        context.insert(PGContact(given: "Aino", family: "Virtanen"))
        try context.save()
        let names = try store.indexNames(onTableOf: "PGContact", at: location)
        #expect(names.contains("PGContact_family_index"))
        #expect(names.contains("PGContact_city_family_index"))
        #expect(names.contains("PGContact_given_family_unique"))
        // Opening the store again keeps them, and makes no others.
        _ = try store.container(PGContact.self, at: location)
        #expect(try store.indexNames(onTableOf: "PGContact", at: location) == names)
    }

    @Test(arguments: TestedStore.available)
    func fetchesOverIndexedAttributesSelectAndOrderAsSwiftDoes(store: TestedStore) throws {
        let container = try store.makeContainer(PGContact.self)
        let context = ModelContext(container)
        let families = ["Virtanen", "Korhonen", "M\u{E4}kinen", "Nieminen", ""]
        let cities = ["Turku", "Oulu", "Espoo"]
        for number in 0..<30 {
            context.insert(
                PGContact(
                    given: "g\(number)", family: families[number % families.count],
                    city: cities[number % cities.count], phone: "\(number)"))
        }
        try context.save()
        let reader = ModelContext(container)
        let all = try reader.fetch(FetchDescriptor<PGContact>())
        #expect(all.count == 30)
        let family = "Ma\u{308}kinen"
        let city = "Oulu"
        let predicates: [Predicate<PGContact>] = [
            #Predicate { $0.family == family },
            #Predicate { $0.city == city && $0.family == family },
            #Predicate { $0.city == city && $0.family > family },
            #Predicate { $0.family.isEmpty },
        ]
        let sort = [SortDescriptor(\PGContact.city), SortDescriptor(\.family), SortDescriptor(\.phone)]
        for (index, predicate) in predicates.enumerated() {
            let expected = try all.filter { try predicate.evaluate($0) }.sorted(using: sort).map(\.phone)
            let fetched = try reader.fetch(FetchDescriptor(predicate: predicate, sortBy: sort)).map(\.phone)
            #expect(!expected.isEmpty, "predicate \(index) selects something")
            #expect(fetched == expected, "predicate \(index)")
        }
    }
}
