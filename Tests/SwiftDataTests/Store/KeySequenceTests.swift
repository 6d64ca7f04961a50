import Foundation
import SwiftData
import Testing

/// The primary key of a deleted row is never given to another model, so a `PersistentIdentifier` kept from before
/// the deletion cannot come to name a different model.
@Suite struct KeySequenceTests {
    /// Saves pets with the given names and returns their identifiers.
    private func insertPets(_ names: [String], into context: ModelContext) throws -> [PersistentIdentifier] {
        let pets = names.map { Pet(name: $0) }
        for pet in pets { context.insert(pet) }
        try context.save()
        return pets.map(\.persistentModelID)
    }

    @Test func theHighestDeletedKeyIsNotGivenAgainAfterReopening() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        var retired: [PersistentIdentifier] = []
        do {
            let context = ModelContext(try makeContainer(Pet.self, Owner.self, at: url))
            let identifiers = try insertPets(["Rex", "Tom", "Kit"], into: context)
            // The last pet has the highest key: a table's largest key alone would give it again.
            try context.delete(model: Pet.self, where: #Predicate { $0.name == "Kit" })
            try context.save()
            retired.append(identifiers[2])
        }
        do {
            let context = ModelContext(try makeContainer(Pet.self, Owner.self, at: url))
            let identifiers = try insertPets(["Max"], into: context)
            #expect(!retired.contains(identifiers[0]))
            // Every row deleted: the table is empty, and the keys stay retired.
            try context.delete(model: Pet.self)
            try context.save()
            retired.append(identifiers[0])
        }
        let context = ModelContext(try makeContainer(Pet.self, Owner.self, at: url))
        let identifiers = try insertPets(["Bo", "Zed"], into: context)
        #expect(identifiers.allSatisfy { !retired.contains($0) })
        #expect(try sqliteRows(url, "SELECT _pk FROM Pet ORDER BY _pk") == ["5", "6"])
    }

    @Test func aStoreWhoseTablesUsedAutoincrementKeepsItsRetiredKeys() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Pet.self, Owner.self, at: url))
            _ = try insertPets(["Rex"], into: context)
        }
        // Stores created before kept the highest key in `sqlite_sequence`, the table SQLite keeps for
        // `AUTOINCREMENT`; here keys up to 40 were given out and their rows deleted since.
        try runSQLite(
            url,
            "CREATE TABLE legacy (id INTEGER PRIMARY KEY AUTOINCREMENT); "
                + "INSERT INTO sqlite_sequence (name, seq) VALUES ('Pet', 40)")
        let context = ModelContext(try makeContainer(Pet.self, Owner.self, at: url))
        _ = try insertPets(["Tom"], into: context)
        #expect(try sqliteRows(url, "SELECT _pk FROM Pet ORDER BY _pk") == ["1", "41"])
    }
}
