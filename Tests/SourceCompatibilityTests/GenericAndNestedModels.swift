// Models nested in other types and generic models, with `@available` attributes on members, as modular apps
// declare them.
import Foundation
import SwiftData
import Testing

enum Inventory {
    @Model
    final class Shelf {
        var label: String
        @Relationship(deleteRule: .cascade) var bins: [Bin] = []

        init(label: String) {
            self.label = label
        }

        @available(*, deprecated, message: "Use label")
        var name: String { label }
    }

    @Model
    final class Bin {
        var code: String
        var shelf: Shelf?

        init(code: String) {
            self.code = code
        }
    }
}

@Model
final class Measurement<Unit: Codable & Sendable> {
    var quantity: Double
    var unit: Unit

    init(quantity: Double, unit: Unit) {
        self.quantity = quantity
        self.unit = unit
    }
}

@Suite struct GenericAndNestedModelTests {
    @Test func nestedModelsRelateAndRoundTrip() throws {
        let container = try ModelContainer(
            for: Inventory.Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let shelf = Inventory.Shelf(label: "A1")
        shelf.bins.append(Inventory.Bin(code: "A1-01"))
        context.insert(shelf)
        try context.save()

        let fresh = ModelContext(container)
        let bins = try fresh.fetch(FetchDescriptor<Inventory.Bin>())
        #expect(bins.map(\.code) == ["A1-01"])
        #expect(bins.first?.shelf?.label == "A1")
    }

    @Test func aGenericModelStoresItsParameterType() throws {
        let container = try ModelContainer(
            for: Measurement<String>.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Measurement(quantity: 2, unit: "kg"))
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Measurement<String>>())
        #expect(stored.map(\.unit) == ["kg"])
        #expect(stored.map(\.quantity) == [2])
    }
}
