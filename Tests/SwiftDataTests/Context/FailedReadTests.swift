import Foundation
import Testing

@testable import SwiftData

@Model
final class FlakyPlace {
    var name: String
    var serial: Int

    init(name: String, serial: Int) {
        self.name = name
        self.serial = serial
    }
}

@Model
final class FlakyLabel {
    var text: String
    var crates: [FlakyCrate] = []

    init(text: String) { self.text = text }
}

/// A crate with each kind of relationship a read can fail on: an optional and a non-optional to-one stored in its
/// row, and a many-to-many stored in a join table.
@Model
final class FlakyCrate {
    var name: String
    var place: FlakyPlace?
    var home: FlakyPlace
    @Relationship(inverse: \FlakyLabel.crates) var labels: [FlakyLabel] = []

    init(name: String, place: FlakyPlace?, home: FlakyPlace) {
        self.name = name
        self.place = place
        self.home = home
    }
}

/// A read that fails (a table another program moved away, a stored value that does not decode) is never taken for
/// a deletion: nothing is cached of it, the next read tries the store again, and no save writes what it did not
/// read.
@Suite struct FailedReadTests {
    /// Two crates, c1 and c2, at place "P" (serial 1) and home "H" (serial 2), each labelled "a" and "b".
    func savedCrates(in directory: TemporaryDirectory) throws -> ModelContainer {
        let container = try makeContainer(FlakyPlace.self, FlakyLabel.self, FlakyCrate.self, at: directory.store())
        let context = ModelContext(container)
        let place = FlakyPlace(name: "P", serial: 1)
        let home = FlakyPlace(name: "H", serial: 2)
        let labels = [FlakyLabel(text: "a"), FlakyLabel(text: "b")]
        for name in ["c1", "c2"] {
            let crate = FlakyCrate(name: name, place: place, home: home)
            context.insert(crate)
            crate.labels = labels
        }
        try context.save()
        return container
    }

    func crates(in context: ModelContext) throws -> [FlakyCrate] {
        try context.fetch(FetchDescriptor<FlakyCrate>(sortBy: [SortDescriptor(\.name)]))
    }

    /// Makes the places unreadable: their serials hold text, which no `Int` decodes from.
    func breakPlaces(in directory: TemporaryDirectory) throws {
        try runSQLite(directory.store(), #"UPDATE "FlakyPlace" SET "serial" = 'lost'"#)
    }

    func mendPlaces(in directory: TemporaryDirectory) throws {
        try runSQLite(directory.store(), #"UPDATE "FlakyPlace" SET "serial" = "_pk""#)
    }

    @Test func optionalToOneWhoseTargetCouldNotBeReadIsReadAgainLater() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCrates(in: directory)
        let context = ModelContext(container)
        let crate = try #require(try crates(in: context).first)
        try breakPlaces(in: directory)

        // The target is there: its model reads its values once they can be read.
        #expect(crate.place != nil)
        #expect(crate.place?.isDeleted == false)

        try mendPlaces(in: directory)
        // Before: `place` stayed nil once the failed read had made it look deleted.
        #expect(crate.place?.name == "P")
        #expect(crate.place?.serial == 1)
    }

    @Test func nonOptionalToOneWhoseTargetCouldNotBeReadIsNotADeletedStandIn() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCrates(in: directory)
        let context = ModelContext(container)
        let crate = try #require(try crates(in: context).first)
        try breakPlaces(in: directory)

        #expect(!crate.home.isDeleted)

        try mendPlaces(in: directory)
        // Before: `home` stayed a deleted stand-in whose name read "".
        #expect(crate.home.name == "H")
        #expect(!crate.home.isDeleted)
    }

    @Test func toOneOfAModelWhoseContextIsGoneIsReadAgainLater() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCrates(in: directory)
        let crate = try #require(try crates(in: ModelContext(container)).first)
        #expect(crate.modelContext == nil)
        try breakPlaces(in: directory)

        _ = crate.place

        try mendPlaces(in: directory)
        #expect(crate.place?.name == "P")
    }

    @Test func modelForAnIdentifierWhoseRowCouldNotBeReadIsNotDeleted() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCrates(in: directory)
        let identifier = try #require(try crates(in: ModelContext(container)).first?.place?.persistentModelID)
        let context = ModelContext(container)
        try breakPlaces(in: directory)

        let place = try #require(context.model(for: identifier) as? FlakyPlace)
        // Before: the model read as deleted.
        #expect(!place.isDeleted)

        try mendPlaces(in: directory)
        #expect(place.name == "P")
        #expect(place.serial == 1)
        #expect(context.model(for: identifier) === place)
    }

    /// Makes the labels unreadable by moving their table away.
    func moveLabelsAway(in directory: TemporaryDirectory) throws {
        try runSQLite(directory.store(), #"ALTER TABLE "FlakyLabel" RENAME TO "FlakyLabelAway""#)
    }

    func moveLabelsBack(in directory: TemporaryDirectory) throws {
        try runSQLite(directory.store(), #"ALTER TABLE "FlakyLabelAway" RENAME TO "FlakyLabel""#)
    }

    @Test(arguments: [false, true])
    func toManyThatCouldNotBeLoadedIsLoadedAgainLater(readsFirstOfAFetch: Bool) throws {
        let directory = try TemporaryDirectory()
        let container = try savedCrates(in: directory)
        let context = ModelContext(container)
        // The first crate of a fetch loads the relationship for the next one too; a crate fetched alone loads its
        // own.
        let crate =
            readsFirstOfAFetch
            ? try #require(try crates(in: context).first)
            : try #require(
                try context.fetch(FetchDescriptor<FlakyCrate>(predicate: #Predicate { $0.name == "c1" })).first)
        try moveLabelsAway(in: directory)

        #expect(crate.labels.isEmpty)

        try moveLabelsBack(in: directory)
        // Before: the labels stayed empty once the failed load had left them so.
        #expect(crate.labels.map(\.text).sorted() == ["a", "b"])
    }

    @Test func changeToAToManyThatCouldNotBeLoadedIsRefusedAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let container = try savedCrates(in: directory)
        let context = ModelContext(container)
        let crate = try #require(
            try context.fetch(FetchDescriptor<FlakyCrate>(predicate: #Predicate { $0.name == "c1" })).first)
        try moveLabelsAway(in: directory)

        crate.labels.append(FlakyLabel(text: "c"))
        try moveLabelsBack(in: directory)

        // Before: the save rewrote the join table from the one label it knew, deleting the links to "a" and "b".
        let error = #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(error == .modelValidationFailure)
        #expect(error?.description.contains("FlakyCrate.labels") == true)
        context.rollback()
        #expect(crate.labels.map(\.text).sorted() == ["a", "b"])

        crate.labels.append(FlakyLabel(text: "c"))
        try context.save()
        let reread = try #require(try crates(in: ModelContext(container)).first)
        #expect(reread.labels.map(\.text).sorted() == ["a", "b", "c"])
    }
}
