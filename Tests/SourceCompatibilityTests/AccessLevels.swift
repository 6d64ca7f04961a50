// Models declared `package` and `public`, as data layers split into packages declare them: the members `@Model`
// generates must take the class's access level to satisfy `PersistentModel`'s requirements.
import Foundation
import SwiftData
import Testing

@Model
final package class PackageNote {
    package var text: String
    package private(set) var revision: Int = 0

    package init(text: String) {
        self.text = text
    }

    package func revise(_ text: String) {
        self.text = text
        revision += 1
    }
}

@Model
public final class PublicNote {
    public private(set) var text: String
    public var pinned: Bool = false

    public init(text: String) {
        self.text = text
    }
}

@Model
public class OpenEndedNote {
    public var title: String

    public init(title: String) {
        self.title = title
    }
}

@Suite struct AccessLevelTests {
    @Test func packageAndPublicModelsRoundTrip() throws {
        let container = try ModelContainer(
            for: PackageNote.self, PublicNote.self, OpenEndedNote.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let note = PackageNote(text: "draft")
        note.revise("final")
        context.insert(note)
        context.insert(PublicNote(text: "pinned"))
        context.insert(OpenEndedNote(title: "open"))
        try context.save()

        let fresh = ModelContext(container)
        let stored = try #require(try fresh.fetch(FetchDescriptor<PackageNote>()).first)
        #expect(stored.text == "final")
        #expect(stored.revision == 1)
        #expect(try fresh.fetch(FetchDescriptor<PublicNote>()).map(\.text) == ["pinned"])
        #expect(try fresh.fetch(FetchDescriptor<OpenEndedNote>()).map(\.title) == ["open"])
    }
}
