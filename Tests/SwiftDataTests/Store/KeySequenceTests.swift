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

    /// A store whose rows refer to no other (no relationships, no uniqueness constraints) gives each model its key
    /// as it writes the model's row: the keys follow the order of insertion, each identifier names its own row, and
    /// deleted keys stay retired as in any other store.
    @Test func aStoreWithoutRelationshipsGivesKeysAsItWritesRowsAndKeepsRetiredOnes() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        var retired: PersistentIdentifier?
        do {
            let context = ModelContext(try makeContainer(Note.self, at: url))
            let notes = ["a", "b", "c"].map { Note(text: $0) }
            for note in notes { context.insert(note) }
            try context.save()
            for note in notes {
                #expect(context.model(for: note.persistentModelID) === note)
            }
            try context.delete(model: Note.self, where: #Predicate { $0.text == "c" })
            try context.save()
            retired = notes[2].persistentModelID
        }
        let context = ModelContext(try makeContainer(Note.self, at: url))
        let notes = ["d", "e"].map { Note(text: $0) }
        for note in notes { context.insert(note) }
        try context.save()
        #expect(!notes.map(\.persistentModelID).contains(retired))
        #expect(try sqliteRows(url, "SELECT _pk, text FROM Note ORDER BY _pk") == ["1|a", "2|b", "4|d", "5|e"])
        let fetched = try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.text)]))
        #expect(fetched.map(\.text) == ["a", "b", "d", "e"])
        #expect(fetched.suffix(2).map(\.persistentModelID) == notes.map(\.persistentModelID))
        #expect(fetched[2] === notes[0] && fetched[3] === notes[1])
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
