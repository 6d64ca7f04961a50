import Foundation
import SwiftData

enum Level: Int, Codable, CaseIterable {
    case junior = 0, regular = 1, senior = 2
}

@Model
final class City {
    var name: String
    var population: Int
    @Relationship(inverse: \Person.city) var people: [Person] = []

    init(name: String, population: Int) {
        self.name = name
        self.population = population
    }
}

@Model
final class Person {
    var name: String
    var nickname: String?
    var age: Int
    var score: Double
    var birth: Date
    var isActive: Bool
    var level: Level
    var rating: Int?
    var city: City?
    @Relationship(inverse: \Pet.owner) var pets: [Pet] = []

    init(name: String, age: Int) {
        self.name = name
        self.age = age
        self.score = 0
        self.birth = Date(timeIntervalSinceReferenceDate: 0)
        self.isActive = false
        self.level = .junior
    }
}

@Model
final class Pet {
    var name: String
    var legs: Int
    var owner: Person?

    init(name: String, legs: Int) {
        self.name = name
        self.legs = legs
    }
}

/// Strings that trip naive SQL: empty, case, accents in both Unicode forms, emoji, ß, digits.
let tricky = [
    "", "a", "A", "b", "abc", "ABC", "Abc", "é", "e\u{301}", "É", "Émile", "emile", "E\u{301}mile", "zoë", "Zoe",
    "zoe\u{308}", "🚀", "🚀🚀", "naïve", "naive", "straße", "Strasse", "10", "9", " a", "a ", "ab", "ba", "Ä", "ä",
]

/// A random population: cities, people linked to them, pets linked to people.
struct Population {
    let container: ModelContainer

    init(seed: UInt64, people: Int = 60) throws {
        var random = SeededRandom(seed: seed)
        container = try ModelContainer(
            for: Person.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true)
        )
        let context = ModelContext(container)
        let cities = (0..<5).map { index in
            City(name: random.pick(tricky) + "\(index % 2)", population: Int.random(in: 0...1_000, using: &random))
        }
        for city in cities { context.insert(city) }
        for _ in 0..<people {
            let person = Person(name: "", age: 0)
            Self.randomize(person, &random)
            context.insert(person)
            if random.chance(0.8) { person.city = random.pick(cities) }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                person.pets.append(Pet(name: random.pick(tricky), legs: random.pick([0, 2, 4, 4, 8])))
            }
        }
        try context.save()
    }

    /// Gives a person random attribute values.
    static func randomize(_ person: Person, _ random: inout SeededRandom) {
        person.name = random.pick(tricky)
        person.age = Int.random(in: -5...90, using: &random)
        person.nickname = random.chance(0.4) ? nil : random.pick(tricky)
        person.score = random.chance(0.1) ? 0 : Double(Int.random(in: -1000...1000, using: &random)) / 8
        person.birth = Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &random))
        person.isActive = random.chance(0.5)
        person.level = random.pick(Level.allCases)
        person.rating = random.chance(0.3) ? nil : Int.random(in: 0...5, using: &random)
    }
}
