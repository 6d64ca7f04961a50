import Foundation
import Testing

@testable import SwiftData

/// A save that spans several stores: every store commits, or none does and the context keeps every change.
@Suite struct MultiStoreSaveTests {
    /// Two stores: trips first, gadgets second, so the gadgets store fails after the trips store wrote its rows.
    private struct TwoStores {
        let directory: TemporaryDirectory
        let trips: URL
        let gadgets: URL
        let context: ModelContext

        init(gadgetsAllowSave: Bool = true) throws {
            directory = try TemporaryDirectory()
            trips = directory.store("trips.store")
            gadgets = directory.store("gadgets.store")
            if !gadgetsAllowSave {
                // A read-only store must exist before it is opened.
                _ = try makeContainer(Gadget.self, at: gadgets)
            }
            let container = try ModelContainer(
                for: Trip.self, Gadget.self,
                configurations: ModelConfiguration("trips", schema: Schema([Trip.self]), url: trips),
                ModelConfiguration(
                    "gadgets", schema: Schema([Gadget.self]), url: gadgets, allowsSave: gadgetsAllowSave)
            )
            context = ModelContext(container)
        }

        // Sorted here: the columns' collation exists only in SwiftData's connections.
        func tripNames() throws -> [String] { try sqliteRows(trips, "SELECT name FROM Trip").sorted() }
        func gadgetNames() throws -> [String] { try sqliteRows(gadgets, "SELECT name FROM Gadget").sorted() }
    }

    /// A constraint of the second store refuses a row: the first store writes nothing either, the error names the
    /// store and the model, and the next save writes each row once.
    @Test func aRefusedRowInOneStoreWritesNothingInAny() throws {
        let stores = try TwoStores()
        stores.context.insert(Gadget(name: "setup", serial: 0))
        stores.context.insert(Trip(name: "setup", destination: "-"))
        try stores.context.save()
        try runSQLite(
            stores.gadgets,
            "CREATE TRIGGER refuse BEFORE INSERT ON Gadget WHEN NEW.name = 'boom' BEGIN SELECT RAISE(ABORT, 'no'); END;"
        )

        let trip = Trip(name: "rome", destination: "Italy")
        let gadget = Gadget(name: "boom", serial: 1)
        stores.context.insert(trip)
        stores.context.insert(gadget)
        let error = try #require(throws: SwiftDataError.self) { try stores.context.save() }
        #expect(error == .modelValidationFailure)
        #expect(error.description.contains("gadgets"), "the error names the store: \(error)")
        #expect(error.description.contains("Gadget"), "the error names the model: \(error)")
        #expect(try stores.tripNames() == ["setup"])
        #expect(try stores.gadgetNames() == ["setup"])
        #expect(stores.context.insertedModelsArray.count == 2)
        #expect(trip.persistentModelID.storeIdentifier == nil)

        gadget.name = "fixed"
        try stores.context.save()
        try stores.context.save()
        #expect(try stores.tripNames() == ["rome", "setup"])
        #expect(try stores.gadgetNames() == ["fixed", "setup"])
        #expect(!stores.context.hasChanges)
    }

    /// A read-only second store refuses the save before anything is written to the first.
    @Test func aReadOnlyStoreRefusesTheSaveBeforeAnyStoreWrites() throws {
        let stores = try TwoStores(gadgetsAllowSave: false)
        let trip = Trip(name: "rome", destination: "Italy")
        stores.context.insert(trip)
        stores.context.insert(Gadget(name: "gizmo", serial: 1))
        let error = try #require(throws: SwiftDataError.self) { try stores.context.save() }
        #expect(error.description.contains("gadgets"), "the error names the store: \(error)")
        #expect(error.description.contains("Gadget"), "the error names the model: \(error)")
        #expect(try stores.tripNames() == [])
        #expect(stores.context.insertedModelsArray.count == 2)

        // Without the gadget, the trip is written once.
        let gadget = try #require(stores.context.insertedModelsArray.first { $0 is Gadget })
        stores.context.delete(gadget)
        try stores.context.save()
        try stores.context.save()
        #expect(try stores.tripNames() == ["rome"])
        #expect(trip.persistentModelID.storeIdentifier != nil)
    }

    /// Changes and deletions in the first store are not written when the second refuses its part, and are
    /// written once when it no longer does.
    @Test func updatesAndDeletionsWaitForEveryStore() throws {
        let stores = try TwoStores()
        let kept = Trip(name: "kept", destination: "-")
        let doomed = Trip(name: "doomed", destination: "-")
        stores.context.insert(kept)
        stores.context.insert(doomed)
        stores.context.insert(Gadget(name: "setup", serial: 0))
        try stores.context.save()
        try runSQLite(
            stores.gadgets, "CREATE TRIGGER refuse BEFORE INSERT ON Gadget BEGIN SELECT RAISE(ABORT, 'no'); END;")

        kept.name = "renamed"
        stores.context.delete(doomed)
        stores.context.insert(Gadget(name: "new", serial: 1))
        #expect(throws: SwiftDataError.modelValidationFailure) { try stores.context.save() }
        #expect(try stores.tripNames() == ["doomed", "kept"])
        #expect(stores.context.hasChanges)
        #expect(stores.context.deletedModelsArray.count == 1)

        try runSQLite(stores.gadgets, "DROP TRIGGER refuse;")
        try stores.context.save()
        #expect(try stores.tripNames() == ["renamed"])
        #expect(try stores.gadgetNames() == ["new", "setup"])
    }
}

/// The rare case where every store wrote its part and a commit itself fails after another store committed: the
/// context applies what was committed and keeps the rest, so the next save writes each change once.
@Suite struct PartlyCommittedSaveTests {
    @Test func aCommitThatFailsAfterAnotherStoreCommittedKeepsOnlyTheRestPending() throws {
        let directory = try TemporaryDirectory()
        let tripsURL = directory.store("trips.store")
        let gadgetsURL = directory.store("gadgets.store")
        let container = try ModelContainer(
            for: Trip.self, Gadget.self,
            configurations: ModelConfiguration("trips", schema: Schema([Trip.self]), url: tripsURL),
            ModelConfiguration("gadgets", schema: Schema([Gadget.self]), url: gadgetsURL)
        )
        // Stores commit in the order of their identifiers; the one that commits second gets a row whose deferred
        // foreign key SQLite checks only at the commit, so its writes succeed and its commit fails.
        let late = try #require(container.sqliteStores.max { $0.identifier < $1.identifier })
        let lateIsTrips = late.configuration.name == "trips"
        let lateURL = lateIsTrips ? tripsURL : gadgetsURL
        let lateTable = lateIsTrips ? "Trip" : "Gadget"
        try runSQLite(
            lateURL,
            """
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
            CREATE TRIGGER dangle AFTER INSERT ON \(lateTable) BEGIN INSERT INTO child VALUES (42); END;
            """
        )
        try late.pool.write { try $0.execute("PRAGMA foreign_keys = ON") }

        let context = ModelContext(container)
        let trip = Trip(name: "rome", destination: "Italy")
        let gadget = Gadget(name: "gizmo", serial: 1)
        context.insert(trip)
        context.insert(gadget)
        let error = try #require(throws: SwiftDataError.self) { try context.save() }
        let early = lateIsTrips ? "gadgets" : "trips"
        #expect(error.description.contains("'\(early)' saved"), "the error says which store committed: \(error)")
        #expect(error.description.contains("'\(late.configuration.name)'"), "and which failed: \(error)")

        let committedModel: any PersistentModel = lateIsTrips ? gadget : trip
        let pendingModel: any PersistentModel = lateIsTrips ? trip : gadget
        #expect(committedModel.persistentModelID.storeIdentifier != nil)
        #expect(pendingModel.persistentModelID.storeIdentifier == nil)
        #expect(context.insertedModelsArray.map { ObjectIdentifier($0) } == [ObjectIdentifier(pendingModel)])

        try runSQLite(lateURL, "DROP TRIGGER dangle;")
        try context.save()
        #expect(try sqliteRows(tripsURL, "SELECT name FROM Trip") == ["rome"])
        #expect(try sqliteRows(gadgetsURL, "SELECT name FROM Gadget") == ["gizmo"])
        #expect(!context.hasChanges)
    }
}
