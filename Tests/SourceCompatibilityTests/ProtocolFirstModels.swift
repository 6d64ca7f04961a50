// Models marked `@available` whose first inherited type is the app's own protocol: they are root models, not
// subclasses, however they are annotated.
import Foundation
import SwiftData
import Testing

protocol IdentifiableObject: AnyObject {
    var identifier: UUID { get }
}

@available(macOS 14, iOS 17, *)
@Model
final class UserLanguage: IdentifiableObject {
    var identifier: UUID
    var code: String

    init(identifier: UUID = UUID(), code: String) {
        self.identifier = identifier
        self.code = code
    }
}

@available(macOS 14, iOS 17, *)
@Model
class Lesson: IdentifiableObject {
    var identifier: UUID
    var title: String
    var scheduled = Date(timeIntervalSinceReferenceDate: 5)

    init(identifier: UUID = UUID(), title: String) {
        self.identifier = identifier
        self.title = title
    }
}

@available(macOS 26, iOS 26, *)
@Model
final class AdvancedLesson: Lesson {
    var level: Int
    var topics = [String]()

    init(title: String, level: Int) {
        self.level = level
        super.init(title: title)
    }
}

@Suite struct ProtocolFirstModelTests {
    @Test func availableModelsAdoptingAnAppProtocolAreRootModels() throws {
        let container = try ModelContainer(
            for: UserLanguage.self, Lesson.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let language = UserLanguage(code: "fi")
        context.insert(language)
        context.insert(Lesson(title: "Numbers"))
        try context.save()

        let fresh = ModelContext(container)
        let stored = try #require(try fresh.fetch(FetchDescriptor<UserLanguage>()).first)
        #expect(stored.code == "fi")
        #expect(stored.identifier == language.identifier)
        #expect(try fresh.fetch(FetchDescriptor<Lesson>()).map(\.title) == ["Numbers"])
        let objects: [any IdentifiableObject] = [stored]
        #expect(objects.map(\.identifier) == [language.identifier])
    }

    @Test func valuesSetBeforeAndAfterInsertAreStored() throws {
        let container = try ModelContainer(
            for: UserLanguage.self, Lesson.self, AdvancedLesson.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let language = UserLanguage(code: "fi")
        #expect(language.code == "fi")
        language.code = "sv"
        context.insert(language)
        let lesson = AdvancedLesson(title: "Verbs", level: 2)
        #expect(lesson.title == "Verbs")
        #expect(lesson.topics.isEmpty)
        context.insert(lesson)
        lesson.level = 3
        lesson.topics.append("tenses")
        try context.save()

        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<UserLanguage>()).map(\.code) == ["sv"])
        let lessons = try fresh.fetch(FetchDescriptor<Lesson>())
        let advanced = try #require(lessons.first as? AdvancedLesson)
        #expect(advanced.title == "Verbs")
        #expect(advanced.level == 3)
        #expect(advanced.topics == ["tenses"])
        #expect(advanced.scheduled == Date(timeIntervalSinceReferenceDate: 5))
        #expect(try fresh.fetch(FetchDescriptor<AdvancedLesson>(predicate: #Predicate { $0.level == 3 })).count == 1)
    }
}
