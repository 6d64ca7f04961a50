// Properties named with keywords, written in backticks, as models of settings and places name them.
import Foundation
import SwiftData
import Testing

@Model
final class Preference {
    var `default`: Bool
    var `where`: String
    var `class`: Int = 0

    init(default: Bool, where: String) {
        self.default = `default`
        self.where = `where`
    }
}

@Suite struct BacktickedNameTests {
    @Test func keywordNamedPropertiesRoundTripAndFilter() throws {
        let container = try ModelContainer(
            for: Preference.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Preference(default: true, where: "home"))
        context.insert(Preference(default: false, where: "work"))
        try context.save()

        let fresh = ModelContext(container)
        let defaults = try fresh.fetch(FetchDescriptor<Preference>(predicate: #Predicate { $0.default }))
        #expect(defaults.map(\.where) == ["home"])
        let names = try #require(container.schema.entity(for: Preference.self)).attributes.map(\.name).sorted()
        #expect(names == ["class", "default", "where"])
    }
}
