import Foundation
import SwiftData
import Testing

@Model
final class Gadget {
    var name: String
    var serial: Int

    init(name: String, serial: Int) {
        self.name = name
        self.serial = serial
    }
}

@Suite struct StoreFileTests {
    @Test func failedSaveWritesNothingAndKeepsPendingChanges() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Gadget.self, at: url))
            context.insert(Gadget(name: "first", serial: 1))
            try context.save()
        }
        // A trigger makes the store refuse one particular row, midway through a save of several.
        try runSQLite(
            url,
            "CREATE TRIGGER refuse BEFORE INSERT ON Gadget WHEN NEW.name = 'boom' BEGIN SELECT RAISE(ABORT, 'refused'); END;"
        )
        let context = ModelContext(try makeContainer(Gadget.self, at: url))
        let first = try #require(try context.fetch(FetchDescriptor<Gadget>()).first)
        first.serial = 100
        let good = Gadget(name: "good", serial: 2)
        let bad = Gadget(name: "boom", serial: 3)
        context.insert(good)
        context.insert(bad)
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }

        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 2)
        #expect(good.persistentModelID.storeIdentifier == nil)
        #expect(first.serial == 100)
        var stored = FetchDescriptor<Gadget>()
        stored.includePendingChanges = false
        let other = ModelContext(try makeContainer(Gadget.self, at: url))
        #expect(try other.fetch(stored).map(\.serial) == [1])

        bad.name = "fixed"
        try context.save()
        #expect(
            try other.fetch(FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.serial)])).map(\.name) == [
                "good", "fixed", "first",
            ])
    }

    @Test(arguments: [
        ("text", Data("just some notes\n".utf8)),
        ("truncated", Data("SQLite format 3\u{0}".utf8) + Data(repeating: 7, count: 50)),
    ])
    func filesThatAreNotStoresAreRefusedUntouched(kind: String, contents: Data) throws {
        let directory = try TemporaryDirectory()
        let url = directory.store("\(kind).store")
        try contents.write(to: url)
        #expect(throws: SwiftDataError.loadIssueModelContainer) { try makeContainer(Gadget.self, at: url) }
        #expect(try Data(contentsOf: url) == contents)
    }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store("foreign.sqlite")
        try runSQLite(
            url, "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);")
        let before = try Data(contentsOf: url)
        let error = #expect(throws: SwiftDataError.self) { try makeContainer(Gadget.self, at: url) }
        #expect(error == .loadIssueModelContainer)
        #expect(error?.description.contains("invoices") == true)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aSchemaThatWouldDropStoredRowsIsRefusedWithWhatDiffers() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let context = ModelContext(try makeContainer(Gadget.self, at: url))
        context.insert(Gadget(name: "kept", serial: 1))
        try context.save()
        let error = #expect(throws: SwiftDataError.self) { try makeContainer(Trip.self, at: url) }
        #expect(error?.description.contains("1 Gadget row(s)") == true)
        #expect(try ModelContext(try makeContainer(Gadget.self, at: url)).fetchCount(FetchDescriptor<Gadget>()) == 1)
    }

    @Test func readOnlyStoresRefuseToSaveAndWriteNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Gadget.self, at: url))
            context.insert(Gadget(name: "kept", serial: 1))
            try context.save()
        }
        let before = try Data(contentsOf: url)
        let context = ModelContext(try makeContainer(Gadget.self, at: url, allowsSave: false))
        #expect(try context.fetch(FetchDescriptor<Gadget>()).map(\.name) == ["kept"])
        context.insert(Gadget(name: "new", serial: 2))
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func severalConfigurationsSplitModelsBetweenFiles() throws {
        let directory = try TemporaryDirectory()
        let gadgets = ModelConfiguration(
            "gadgets", schema: Schema([Gadget.self]), url: directory.store("gadgets.store"))
        let trips = ModelConfiguration("trips", schema: Schema([Trip.self]), url: directory.store("trips.store"))
        let container = try ModelContainer(for: Gadget.self, Trip.self, configurations: gadgets, trips)
        let context = ModelContext(container)
        context.insert(Gadget(name: "g", serial: 1))
        context.insert(Trip(name: "t", destination: "d"))
        try context.save()
        #expect(FileManager.default.fileExists(atPath: directory.store("gadgets.store").path))
        #expect(FileManager.default.fileExists(atPath: directory.store("trips.store").path))
        let reopenedGadgets = try makeContainer(Gadget.self, at: directory.store("gadgets.store"))
        #expect(try ModelContext(reopenedGadgets).fetchCount(FetchDescriptor<Gadget>()) == 1)
    }

    /// Saving a model whose class is in none of the container's stores throws
    /// `configurationSchemaNotFoundInContainerSchema`, writes nothing and keeps every pending insert, whether the
    /// container has one store or several.
    @Test(arguments: [false, true])
    func aModelOutsideTheContainersSchemaFailsTheSaveAndLosesNothing(severalStores: Bool) throws {
        let directory = try TemporaryDirectory()
        let tripsURL = directory.store("trips.store")
        let trips = ModelConfiguration("trips", schema: Schema([Trip.self]), url: tripsURL)
        let gadgets = ModelConfiguration(
            "gadgets", schema: Schema([Gadget.self]), url: directory.store("gadgets.store"))
        let container =
            severalStores
            ? try ModelContainer(for: Trip.self, Gadget.self, configurations: trips, gadgets)
            : try ModelContainer(for: Trip.self, configurations: trips)
        let context = ModelContext(container)
        let trip = Trip(name: "t", destination: "d")
        let stranger = Note(text: "in no store")
        context.insert(trip)
        context.insert(stranger)
        #expect(throws: SwiftDataError.configurationSchemaNotFoundInContainerSchema) { try context.save() }
        #expect(
            context.insertedModelsArray.map { ObjectIdentifier($0) } == [trip, stranger].map(ObjectIdentifier.init))
        #expect(trip.persistentModelID.storeIdentifier == nil)
        #expect(try sqliteRows(tripsURL, "SELECT count(*) FROM Trip") == ["0"])
        // Without the stranger, the same context saves.
        context.delete(stranger)
        try context.save()
        #expect(try sqliteRows(tripsURL, "SELECT name FROM Trip") == ["t"])
    }

    @Test func defaultLocationFollowsXDGDataHome() throws {
        let configuration = ModelConfiguration("Projects", groupContainer: .identifier("group.example"))
        #expect(configuration.url.lastPathComponent == "Projects.store")
        #expect(configuration.url.path.contains("SwiftDataGroups/group.example"))
        #expect(ModelConfiguration().name == "default")
        #expect(throws: SwiftDataError.configurationFileNameContainsInvalidCharacters) {
            try ModelConfiguration("a/b").validate()
        }
    }
}
