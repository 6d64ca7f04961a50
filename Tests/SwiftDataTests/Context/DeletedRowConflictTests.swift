import Foundation
import SwiftData
import Testing

/// A context saves changes to a model whose row another context or process deleted: the save throws, writes
/// nothing, and the context can resolve the conflict and save again.
@Suite struct DeletedRowConflictTests {
    /// Context A edits a trip that context B deletes and saves first.
    @Test func anEditOfARowDeletedByAnotherContextFailsTheSave() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Trip.self, at: url)
        let setup = ModelContext(container)
        setup.insert(Trip(name: "rome", destination: "Italy"))
        setup.insert(Trip(name: "oslo", destination: "Norway"))
        try setup.save()

        let first = ModelContext(container)
        let second = ModelContext(container)
        let trips = try first.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let (oslo, rome) = (trips[0], trips[1])
        let romeElsewhere = try #require(
            try second.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "rome" })).first)
        second.delete(romeElsewhere)
        try second.save()

        rome.budget = 1000
        oslo.budget = 50
        let error = try #require(throws: SwiftDataError.self) { try first.save() }
        #expect(error == .modelValidationFailure)
        #expect(error.description.contains("Trip"), "the error names the model: \(error)")
        #expect(error.description.contains("deleted"), "the error says what happened: \(error)")
        // Nothing was written, not even the change to the row that still exists.
        #expect(try sqliteRows(url, "SELECT name, budget FROM Trip") == ["oslo|0.0"])
        #expect(first.hasChanges)
        #expect(first.changedModelsArray.count == 2)

        // Saving again without resolving fails again.
        #expect(throws: SwiftDataError.modelValidationFailure) { try first.save() }

        // The app resolves the conflict by deleting its copy; the other change is then written once.
        first.delete(rome)
        try first.save()
        #expect(try sqliteRows(url, "SELECT name, budget FROM Trip") == ["oslo|50.0"])
        #expect(!first.hasChanges)
    }

    /// Another process (the sqlite3 tool) deletes the row; a change that only touches a to-many relationship is
    /// refused too, rather than leaving link rows that point at nothing.
    @Test func anEditOfARowDeletedByAnotherProcessFailsTheSave() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let container = try makeContainer(Trip.self, at: url)
        let setup = ModelContext(container)
        setup.insert(Trip(name: "rome", destination: "Italy"))
        setup.insert(TripTag(label: "food"))
        try setup.save()

        let context = ModelContext(container)
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        let tag = try #require(try context.fetch(FetchDescriptor<TripTag>()).first)
        try runSQLite(url, "DELETE FROM Trip;")

        trip.name = "roma"
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        context.rollback()
        trip.tags.append(tag)
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        #expect(try sqliteRows(url, "SELECT count(*) FROM Trip") == ["0"])

        // Resolved by a rollback: the context no longer claims a change it cannot make.
        context.rollback()
        try context.save()
        #expect(!context.hasChanges)
    }
}

/// Models another context deleted together (a cascade) leave this context without counting as its changes: a
/// later save of unrelated changes succeeds.
@Suite struct DeletedTogetherElsewhereTests {
    @Test func aCascadeElsewhereLeavesNoConflictBehind() throws {
        let container = try makeInMemoryContainer(Trip.self, Gadget.self)
        let setup = ModelContext(container)
        let trip = Trip(name: "rome", destination: "Italy")
        setup.insert(trip)
        trip.bucketList = (0..<6).map { BucketListItem(title: "item \($0)") }
        setup.insert(Gadget(name: "g", serial: 1))
        try setup.save()

        let context = ModelContext(container)
        let seen = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(seen.bucketList.count == 6)
        let gadget = try #require(try context.fetch(FetchDescriptor<Gadget>()).first)

        let other = ModelContext(container)
        other.delete(try #require(try other.fetch(FetchDescriptor<Trip>()).first))
        try other.save()

        gadget.serial = 2
        try context.save()
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Gadget>()).map(\.serial) == [2])
    }
}
