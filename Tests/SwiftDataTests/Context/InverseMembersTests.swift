import Foundation
import SwiftData
import Testing

/// A binder whose leaflets name it in their initializer, before either is in a context.
@Model
final class Binder {
    var title: String
    @Relationship(inverse: \Leaflet.binder) var leaflets: [Leaflet] = []
    @Relationship(inverse: \Leaflet.shelves) var shelved: [Leaflet] = []
    init(title: String) { self.title = title }
}

@Model
final class Leaflet {
    var name: String
    var binder: Binder?
    var shelves: [Binder] = []
    // The relationships first, while `self` is not initialized yet: they are stored before the model is bound to
    // its backing data, and their inverses wait until it is.
    init(name: String, binder: Binder?, shelves: [Binder] = []) {
        self.binder = binder
        self.shelves = shelves
        self.name = name
    }
}

/// A protocol of the app's, which a model adopts first among its inherited types.
protocol Filed {}

/// A model whose initializer sets its relationship, stored until the model is bound as for a subclass.
@Model
final class Pamphlet: Filed {
    var name: String
    var folio: Folio?
    init(name: String, folio: Folio?) {
        self.name = name
        self.folio = folio
    }
}

@Model
final class Folio {
    var title: String
    @Relationship(inverse: \Pamphlet.folio) var pamphlets: [Pamphlet] = []
    init(title: String) { self.title = title }
}

/// Two to-many relationships naming the same to-many as their inverse.
@Model
final class Topic {
    var name: String
    @Relationship(inverse: \Article.topics) var articles: [Article] = []
    @Relationship(inverse: \Article.topics) var featured: [Article] = []
    init(name: String) { self.name = name }
}

@Model
final class Article {
    var title: String
    var topics: [Topic] = []
    init(title: String) { self.title = title }
}

/// Setting a to-one relationship adds the model to its inverse to-many, and moving it takes it out of the old one.
/// The members change in place: giving one model n members one by one must not copy them n times.
@Suite struct InverseMembersTests {
    /// How many times the storage of the members moved while `count` models joined through their to-one side. A
    /// copy of the members per added model moves it every time; growing in place, only when its capacity is
    /// exhausted, about log₂(count) times.
    private func storageMoves<Member>(count: Int, add: (Int) -> Void, members: () -> [Member]) -> Int {
        var moves = 0
        var address: UInt?
        for number in 0..<count {
            add(number)
            let current = members().withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            if current != address { moves += 1 }
            address = current
        }
        return moves
    }

    @Test func membersGrowInPlaceAsModelsJoinThroughTheirToOneSide() throws {
        let context = ModelContext(try makeInMemoryContainer(Airport.self))
        let airport = Airport(code: "AMS")
        context.insert(airport)
        let moves = storageMoves(
            count: 300, add: { Flight(number: "KL\($0)").origin = airport }, members: { airport.departures })
        #expect(moves < 30)
        #expect(airport.departures.map(\.number) == (0..<300).map { "KL\($0)" })
        try context.save()
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Airport>())
        #expect(stored.first?.departures.count == 300)
    }

    @Test func optionalMembersGrowInPlaceToo() throws {
        let context = ModelContext(try makeInMemoryContainer(Album.self))
        let album = Album(title: "Summer")
        context.insert(album)
        let moves = storageMoves(
            count: 300, add: { Photo(caption: "\($0)").album = album }, members: { album.photos ?? [] })
        #expect(moves < 30)
        #expect(album.photos?.map(\.caption) == (0..<300).map { "\($0)" })
    }

    /// Moving models between owners keeps the order of the rest on both sides, and setting the same owner again
    /// adds nothing.
    @Test func movingModelsKeepsBothSidesInOrder() throws {
        let context = ModelContext(try makeInMemoryContainer(Airport.self))
        let amsterdam = Airport(code: "AMS")
        let lisbon = Airport(code: "LIS")
        context.insert(amsterdam)
        context.insert(lisbon)
        let flights = (0..<50).map { Flight(number: "\($0)") }
        for flight in flights { flight.origin = amsterdam }
        for flight in flights { flight.origin = amsterdam }
        #expect(amsterdam.departures.count == 50)
        for (number, flight) in flights.enumerated() where number.isMultiple(of: 2) { flight.origin = lisbon }
        #expect(amsterdam.departures.map(\.number) == (0..<50).filter { !$0.isMultiple(of: 2) }.map { "\($0)" })
        #expect(lisbon.departures.map(\.number) == (0..<50).filter { $0.isMultiple(of: 2) }.map { "\($0)" })
        flights[1].origin = nil
        #expect(amsterdam.departures.count == 24)
        #expect(!amsterdam.departures.contains { $0 === flights[1] })
        try context.save()

        let other = ModelContext(context.container)
        let stored = try other.fetch(FetchDescriptor<Airport>(sortBy: [SortDescriptor(\.code)]))
        #expect(stored.map { $0.departures.count } == [24, 25])
    }

    /// Saved models moved away and back, in a context that read the members from the store, or reads them only
    /// when a model comes back, are among them once.
    @Test func savedModelsMovedBackAreAmongTheMembersOnce() throws {
        let container = try makeInMemoryContainer(Airport.self)
        let writer = ModelContext(container)
        let amsterdam = Airport(code: "AMS")
        let lisbon = Airport(code: "LIS")
        writer.insert(amsterdam)
        writer.insert(lisbon)
        for number in 0..<5 { Flight(number: "\(number)").origin = amsterdam }
        try writer.save()

        let loaded = ModelContext(container)
        let airports = try loaded.fetch(FetchDescriptor<Airport>(sortBy: [SortDescriptor(\.code)]))
        #expect(airports[0].departures.count == 5)
        for flight in airports[0].departures { flight.origin = airports[1] }
        for flight in airports[1].departures { flight.origin = airports[0] }
        #expect(airports[0].departures.count == 5)
        #expect(Set(airports[0].departures.map(\.number)).count == 5)
        #expect(airports[1].departures.isEmpty)

        // The flights first, their origin's members unread until a flight comes back.
        let unread = ModelContext(container)
        let flights = try unread.fetch(FetchDescriptor<Flight>(sortBy: [SortDescriptor(\.number)]))
        let other = try #require(try unread.fetch(FetchDescriptor<Airport>()).first { $0.code == "LIS" })
        let origin = try #require(flights[0].origin)
        flights[0].origin = other
        flights[0].origin = origin
        #expect(origin.departures.count == 5)
        #expect(origin.departures.filter { $0 === flights[0] }.count == 1)
        try unread.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Airport>(sortBy: [SortDescriptor(\.code)]))
        #expect(stored.map { $0.departures.count } == [5, 0])
    }

    /// A model whose initializer sets its side before it is in a context, and whose other side then lists it too,
    /// is listed once: its side's inverse waits until the model is bound, and by then the other side holds it.
    @Test func aModelBothSidesListBeforeItIsBoundIsListedOnce() throws {
        let context = ModelContext(try makeInMemoryContainer(Binder.self))
        let binder = Binder(title: "Recipes")
        context.insert(binder)
        let leaflet = Leaflet(name: "Soup", binder: binder)
        binder.leaflets.append(leaflet)
        #expect(binder.leaflets.count == 1)

        let shelf = Binder(title: "Shelf")
        context.insert(shelf)
        let shelved = Leaflet(name: "Bread", binder: nil, shelves: [shelf])
        shelf.shelved.append(shelved)
        #expect(shelf.shelved.count == 1)
        #expect(shelved.shelves.count == 1)
        try context.save()
        let stored = try ModelContext(context.container).fetch(
            FetchDescriptor<Binder>(sortBy: [SortDescriptor(\.title)]))
        #expect(stored.map { $0.leaflets.count } == [1, 0])
        #expect(stored.map { $0.shelved.count } == [0, 1])
    }

    /// The same, for a model whose class keeps what its initializer set apart until it is bound.
    @Test func aModelOfAClassWithAnInheritedProtocolIsListedOnce() throws {
        let context = ModelContext(try makeInMemoryContainer(Folio.self))
        let folio = Folio(title: "Travel")
        context.insert(folio)
        let pamphlet = Pamphlet(name: "Trains", folio: folio)
        folio.pamphlets.append(pamphlet)
        #expect(folio.pamphlets.count == 1)
        #expect(pamphlet.folio === folio)
    }

    /// Undoing the deletion of an unsaved model lists it again on the other sides, once, whichever side held it.
    @Test func undoingTheDeletionOfAnUnsavedModelRestoresBothSides() throws {
        let context = ModelContext(try makeInMemoryContainer(Airport.self))
        let undoManager = UndoManager()
        context.undoManager = undoManager
        let airport = Airport(code: "AMS")
        context.insert(airport)
        let flight = Flight(number: "1")
        flight.origin = airport
        context.processPendingChanges()
        context.delete(flight)
        #expect(airport.departures.isEmpty)
        undoManager.undo()
        #expect(airport.departures.map(\.number) == ["1"])
        #expect(flight.origin === airport)

        context.processPendingChanges()
        context.delete(airport)
        #expect(flight.origin == nil)
        undoManager.undo()
        #expect(airport.departures.map(\.number) == ["1"])
        #expect(flight.origin === airport)
        flight.origin = airport
        #expect(airport.departures.count == 1)
        try context.save()
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Flight>())
        #expect(stored.first?.origin?.code == "AMS")
    }

    /// A model two relationships of another list is among that model's inverse members once.
    @Test func aModelListedByTwoRelationshipsWithOneInverseIsAmongItsMembersOnce() throws {
        let context = ModelContext(try makeInMemoryContainer(Topic.self))
        let topic = Topic(name: "Swift")
        let article = Article(title: "Macros")
        context.insert(topic)
        context.insert(article)
        topic.articles = [article]
        topic.featured = [article]
        #expect(article.topics.count == 1)
    }

    /// The members a saved model had are what a rollback restores, however many joined in place since.
    @Test func rollbackRestoresTheSavedMembers() throws {
        let context = ModelContext(try makeInMemoryContainer(Airport.self))
        let airport = Airport(code: "AMS")
        context.insert(airport)
        for number in 0..<3 { Flight(number: "\(number)").origin = airport }
        try context.save()
        let saved = airport.departures.map(\.number)

        for number in 3..<10 { Flight(number: "\(number)").origin = airport }
        airport.departures.first?.origin = nil
        #expect(airport.departures.count == 9)
        context.rollback()
        #expect(airport.departures.map(\.number).sorted() == saved.sorted())
    }

    /// Undoing the to-one change takes the model out of the members again.
    @Test func undoTakesTheModelOutOfTheMembers() throws {
        let context = ModelContext(try makeInMemoryContainer(Airport.self))
        let undoManager = UndoManager()
        context.undoManager = undoManager
        let airport = Airport(code: "AMS")
        context.insert(airport)
        let first = Flight(number: "1")
        first.origin = airport
        try context.save()
        context.processPendingChanges()
        undoManager.removeAllActions()

        let second = Flight(number: "2")
        second.origin = airport
        context.processPendingChanges()
        #expect(airport.departures.map(\.number) == ["1", "2"])
        undoManager.undo()
        #expect(airport.departures.map(\.number) == ["1"])
    }
}
