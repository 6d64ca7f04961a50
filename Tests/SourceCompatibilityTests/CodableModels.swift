// Models that are also `Codable` (imported from and exported to JSON), with nested enums, as apps that sync with a
// web service write them.
import Foundation
import SwiftData
import Testing

@Model
final class Recipe: Codable {
    enum Difficulty: String, Codable {
        case easy, hard
    }

    enum CodingKeys: String, CodingKey {
        case title
        case minutes
        case difficulty
    }

    var id = UUID()
    var title: String
    var minutes: Int
    var difficulty: Difficulty = Difficulty.easy

    init(title: String, minutes: Int) {
        self.title = title
        self.minutes = minutes
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        minutes = try container.decode(Int.self, forKey: .minutes)
        difficulty = try container.decode(Difficulty.self, forKey: .difficulty)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(minutes, forKey: .minutes)
        try container.encode(difficulty, forKey: .difficulty)
    }
}

@Suite struct CodableModelTests {
    @Test func aCodableModelDecodesInsertsAndEncodes() throws {
        let json = Data(#"[{"title":"Soup","minutes":30,"difficulty":"hard"}]"#.utf8)
        let recipes = try JSONDecoder().decode([Recipe].self, from: json)
        let container = try ModelContainer(
            for: Recipe.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        recipes.forEach(context.insert)
        try context.save()

        let stored = try ModelContext(container).fetch(FetchDescriptor<Recipe>())
        #expect(stored.map(\.title) == ["Soup"])
        #expect(stored.map(\.difficulty) == [.hard])
        #expect(stored.map(\.id) == recipes.map(\.id))
        let encoded = try JSONEncoder().encode(stored)
        let decodedAgain = try JSONDecoder().decode([Recipe].self, from: encoded)
        #expect(decodedAgain.map(\.minutes) == [30])
    }
}
