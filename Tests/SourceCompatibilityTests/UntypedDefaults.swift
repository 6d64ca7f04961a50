// Stored properties whose type the compiler infers from a default that is not a literal, as real models write
// them: a static member of the property's type, an initializer call, and a member of an app enum.
import Foundation
import SwiftData
import Testing

enum VideoPlacement: String, Codable, Sendable {
    case inline
    case fullScreen

    static let defaultPlacement = VideoPlacement.inline
}

@Model
final class Budget {
    public private(set) var income = Decimal.zero
    var placement = VideoPlacement.defaultPlacement
    var createdAt = Date(timeIntervalSinceReferenceDate: 0)
    var tags = [String]()
    var note = ""

    init() {}

    func record(income: Decimal) {
        self.income += income
    }
}

@Suite struct UntypedDefaultsTests {
    @Test func untypedDefaultsAreStoredAndReadBack() throws {
        let container = try ModelContainer(
            for: Budget.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let budget = Budget()
        #expect(budget.income == .zero)
        #expect(budget.placement == .inline)
        budget.record(income: 12.5)
        budget.placement = .fullScreen
        budget.tags = ["rent"]
        context.insert(budget)
        try context.save()

        let fresh = ModelContext(container)
        let stored = try #require(try fresh.fetch(FetchDescriptor<Budget>()).first)
        #expect(stored.income == 12.5)
        #expect(stored.placement == .fullScreen)
        #expect(stored.tags == ["rent"])
        #expect(stored.createdAt == Date(timeIntervalSinceReferenceDate: 0))
        let entity = try #require(container.schema.entity(for: Budget.self))
        #expect(entity.attributesByName["income"]?.defaultValue as? Decimal == .zero)
        #expect(entity.attributesByName["placement"]?.defaultValue as? VideoPlacement == .inline)
    }
}
