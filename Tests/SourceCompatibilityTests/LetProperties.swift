// `let` stored properties, as Apple's samples declare a value fixed when a model is made.
import Foundation
import SwiftData
import Testing

@Model
final class Visit {
    let identifier: UUID
    var note: String

    init(identifier: UUID, note: String) {
        self.identifier = identifier
        self.note = note
    }
}

@Suite struct LetPropertyTests {
    @Test func letPropertiesAreStoredAtInsertAndReadBack() throws {
        let container = try ModelContainer(
            for: Visit.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let identifier = UUID()
        context.insert(Visit(identifier: identifier, note: "first"))
        try context.save()

        let fresh = ModelContext(container)
        let visits = try fresh.fetch(FetchDescriptor<Visit>(predicate: #Predicate { $0.identifier == identifier }))
        #expect(visits.map(\.identifier) == [identifier])
        #expect(visits.map(\.note) == ["first"])
    }
}
