import Foundation
import SwiftData
import Testing

@Model
final class PGShelf {
    var name: String
    @Relationship(deleteRule: .deny, inverse: \PGBook.shelf) var books: [PGBook] = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class PGBook {
    var title: String
    var shelf: PGShelf?

    init(title: String) {
        self.title = title
    }
}

/// To-one, to-many and many-to-many relationships and their delete rules, on each store.
@Suite struct StoreRelationshipTests {
    private func trip(_ context: ModelContext, code: String) throws -> PGTrip {
        try #require(try context.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.code == code })).first)
    }

    @Test(arguments: TestedStore.available)
    func toOneAndToManyRelationshipsRoundTripWithTheirInverses(store: TestedStore) throws {
        let location = try store.makeLocation()
        let context = ModelContext(try store.container(PGTrip.self, at: location))
        let north = PGTrip(code: "N", name: "north")
        let south = PGTrip(code: "S", name: "south")
        context.insert(north)
        context.insert(south)
        north.stops = [PGStop(title: "Flåm", order: 2), PGStop(title: "Voss", order: 1)]
        let loose = PGStop(title: "Loose", order: 0)
        context.insert(loose)
        // Setting the to-one side fills the to-many side.
        let alta = PGStop(title: "Alta", order: 3)
        context.insert(alta)
        alta.trip = north
        #expect(north.stops.contains { $0 === alta })
        try context.save()

        let reader = ModelContext(try store.container(PGTrip.self, at: location))
        let read = try trip(reader, code: "N")
        #expect(read.stops.map(\.title).sorted() == ["Alta", "Flåm", "Voss"])
        #expect(read.stops.allSatisfy { $0.trip === read })
        #expect(try trip(reader, code: "S").stops.isEmpty)
        let unowned = try reader.fetch(FetchDescriptor<PGStop>(predicate: #Predicate { $0.trip == nil }))
        #expect(unowned.map(\.title) == ["Loose"])

        // Moving a stop to another trip takes it out of the first trip's stops.
        let voss = try #require(read.stops.first { $0.title == "Voss" })
        voss.trip = try trip(reader, code: "S")
        try reader.save()
        let moved = ModelContext(try store.container(PGTrip.self, at: location))
        #expect(try trip(moved, code: "N").stops.map(\.title).sorted() == ["Alta", "Flåm"])
        #expect(try trip(moved, code: "S").stops.map(\.title) == ["Voss"])
    }

    @Test(arguments: TestedStore.available)
    func manyToManyRelationshipsLinkBothWaysAndUnlink(store: TestedStore) throws {
        let location = try store.makeLocation()
        let context = ModelContext(try store.container(PGTrip.self, at: location))
        let (summer, winter, family) = (PGTag(label: "summer"), PGTag(label: "winter"), PGTag(label: "family"))
        let one = PGTrip(code: "1", name: "one")
        let two = PGTrip(code: "2", name: "two")
        context.insert(one)
        context.insert(two)
        one.tags = [summer, family]
        two.tags = [winter, family]
        try context.save()

        let reader = ModelContext(try store.container(PGTrip.self, at: location))
        #expect(try trip(reader, code: "1").tags.map(\.label).sorted() == ["family", "summer"])
        #expect(try trip(reader, code: "2").tags.map(\.label).sorted() == ["family", "winter"])
        let tags = try reader.fetch(FetchDescriptor<PGTag>(sortBy: [SortDescriptor(\.label)]))
        #expect(tags.map { $0.trips.map(\.code).sorted() } == [["1", "2"], ["1"], ["2"]])

        // Unlinking from the other side, and linking a tag to a trip through the tag.
        let familyTag = tags[0]
        familyTag.trips.removeAll { $0.code == "1" }
        tags[2].trips.append(try trip(reader, code: "1"))
        try reader.save()
        let after = ModelContext(try store.container(PGTrip.self, at: location))
        #expect(try trip(after, code: "1").tags.map(\.label).sorted() == ["summer", "winter"])
        #expect(try trip(after, code: "2").tags.map(\.label).sorted() == ["family", "winter"])
        #expect(try after.fetchCount(FetchDescriptor<PGTag>()) == 3)
    }

    @Test(arguments: TestedStore.available)
    func cascadeDeletesTheOwnedModelsAndNullifyUnlinksTheOthers(store: TestedStore) throws {
        let location = try store.makeLocation()
        let container = try store.container(PGTrip.self, at: location)
        let context = ModelContext(container)
        let tag = PGTag(label: "shared")
        for code in ["A", "B"] {
            let trip = PGTrip(code: code, name: code)
            context.insert(trip)
            trip.stops = [PGStop(title: "\(code)1", order: 1), PGStop(title: "\(code)2", order: 2)]
            trip.tags = [tag]
        }
        try context.save()

        let deleter = ModelContext(container)
        deleter.delete(try trip(deleter, code: "A"))
        try deleter.save()
        for reader in [ModelContext(container), ModelContext(try store.container(PGTrip.self, at: location))] {
            #expect(try reader.fetch(FetchDescriptor<PGTrip>()).map(\.code) == ["B"])
            #expect(
                try reader.fetch(FetchDescriptor<PGStop>(sortBy: [SortDescriptor(\.title)])).map(\.title) == [
                    "B1", "B2",
                ])
            let tags = try reader.fetch(FetchDescriptor<PGTag>())
            #expect(tags.map { $0.trips.map(\.code) } == [["B"]])
        }

        // Deleting a stop (the to-one side, nullify) and a tag takes them out of the trip's relationships.
        let editor = ModelContext(container)
        let b = try trip(editor, code: "B")
        editor.delete(try #require(b.stops.first { $0.title == "B1" }))
        editor.delete(try #require(b.tags.first))
        try editor.save()
        let reader = ModelContext(try store.container(PGTrip.self, at: location))
        let read = try trip(reader, code: "B")
        #expect(read.stops.map(\.title) == ["B2"])
        #expect(read.tags.isEmpty)
        #expect(try reader.fetchCount(FetchDescriptor<PGTag>()) == 0)
    }

    /// A `.deny` rule refuses the whole save while related models remain: nothing of it is written, and the
    /// context keeps its changes until they are fixed.
    @Test(arguments: TestedStore.available)
    func denyRefusesTheWholeSaveAndKeepsThePendingChanges(store: TestedStore) throws {
        let container = try store.makeContainer(PGShelf.self)
        let context = ModelContext(container)
        let shelf = PGShelf(name: "fiction")
        context.insert(shelf)
        shelf.books = [PGBook(title: "Kalevala")]
        try context.save()

        let other = PGShelf(name: "poetry")
        context.insert(other)
        shelf.name = "renamed"
        context.delete(shelf)
        let error = #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(error == .modelValidationFailure)
        #expect(error?.description.contains("PGShelf") == true)
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 1)
        #expect(context.deletedModelsArray.count == 1)
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<PGShelf>()).map(\.name) == ["fiction"])
        #expect(try reader.fetchCount(FetchDescriptor<PGBook>()) == 1)

        // With its books deleted, the shelf may go.
        for book in shelf.books { context.delete(book) }
        try context.save()
        let after = ModelContext(container)
        #expect(try after.fetch(FetchDescriptor<PGShelf>()).map(\.name) == ["poetry"])
        #expect(try after.fetchCount(FetchDescriptor<PGBook>()) == 0)
    }
}
