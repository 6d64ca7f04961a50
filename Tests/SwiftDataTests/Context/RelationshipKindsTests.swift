import Foundation
import SwiftData
import Testing

@Suite struct RelationshipKindsTests {
    @Test func twoRelationshipsBetweenTheSameTypesKeepTheirOwnInverses() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Airport.self, at: directory.store()))
            let hel = Airport(code: "HEL")
            let nrt = Airport(code: "NRT")
            context.insert(hel)
            let flight = Flight(number: "AY73")
            flight.origin = hel
            nrt.arrivals.append(flight)
            #expect(hel.departures.map(\.number) == ["AY73"])
            #expect(hel.arrivals.isEmpty)
            #expect(flight.destination === nrt)
            #expect(nrt.modelContext === context)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Airport.self, at: directory.store()))
        let flight = try #require(try context.fetch(FetchDescriptor<Flight>()).first)
        #expect(flight.origin?.code == "HEL")
        #expect(flight.destination?.code == "NRT")
        #expect(flight.destination?.arrivals.first === flight)
        #expect(flight.origin?.arrivals.isEmpty == true)
    }

    @Test func inverseNilMakesBothSidesIndependent() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Owner.self, at: directory.store()))
            let owner = Owner(name: "Aino")
            let cat = Pet(name: "Miuku")
            owner.pets.append(cat)
            #expect(cat.owner == nil)
            context.insert(owner)
            #expect(cat.modelContext === context)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Owner.self, at: directory.store()))
        let owner = try #require(try context.fetch(FetchDescriptor<Owner>()).first)
        #expect(owner.pets.map(\.name) == ["Miuku"])
        #expect(owner.pets.first?.owner == nil)
        let relationship = try #require(context.container.schema.entity(for: Owner.self)?.relationshipsByName["pets"])
        #expect(relationship.isUnidirectional)
        #expect(relationship.inverseName == nil)
    }

    @Test func anAmbiguousInverseIsRefusedNamingBothTypes() throws {
        let error = #expect(throws: SwiftDataError.self) { try makeInMemoryContainer(Residence.self) }
        #expect(error == .loadIssueModelContainer)
        #expect(error?.description.contains("Residence.residents") == true)
        #expect(error?.description.contains("Resident") == true)
        #expect(error?.description.contains("home, work") == true)
    }

    @Test func optionalToManyIsNeverNil() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Album.self, at: directory.store()))
            let album = Album(title: "Summer")
            context.insert(album)
            #expect(album.photos?.isEmpty == true)
            album.photos = nil
            #expect(album.photos?.isEmpty == true)
            album.photos?.append(Photo(caption: "Beach"))
            #expect(album.photos?.first?.album === album)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Album.self, at: directory.store()))
        let album = try #require(try context.fetch(FetchDescriptor<Album>()).first)
        #expect(album.photos?.map(\.caption) == ["Beach"])
    }

    @Test func replacingAndReorderingAToManyUpdatesInverses() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let trip = Trip(name: "A", destination: "X")
        context.insert(trip)
        let first = BucketListItem(title: "1")
        let second = BucketListItem(title: "2")
        let third = BucketListItem(title: "3")
        trip.bucketList = [first, second]
        trip.bucketList.reverse()
        #expect(first.trip === trip && second.trip === trip)
        trip.bucketList = [third]
        #expect(first.trip == nil && second.trip == nil && third.trip === trip)
        try context.save()
        third.trip = nil
        #expect(trip.bucketList.isEmpty)
        try context.save()
        let fresh = ModelContext(context.container)
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).first?.bucketList.isEmpty == true)
    }
}

@Suite struct DeleteRuleTests {
    @Test func denyRefusesTheSaveAndKeepsEverythingUntilFixed() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(Library.self, at: directory.store())
        let context = ModelContext(container)
        let library = Library(name: "Oodi")
        library.books = [Book(title: "Kalevala")]
        context.insert(library)
        try context.save()

        context.delete(library)
        let error = #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(error == .modelValidationFailure)
        #expect(error?.description.contains("Library") == true)
        #expect(error?.description.contains("books") == true)
        #expect(context.hasChanges)
        #expect(library.books.count == 1)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Library>()) == 1)

        let book = try #require(library.books.first)
        context.delete(book)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Library>()) == 0)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 0)
    }

    @Test func noActionLeavesReferencesThatThenResolveToNothing() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(Shelf.self, at: directory.store())
        let context = ModelContext(container)
        let shelf = Shelf(label: "A")
        let box = Box(label: "tools")
        shelf.boxes = [box]
        context.insert(shelf)
        try context.save()
        context.delete(shelf)
        try context.save()
        #expect(box.shelf === shelf)
        #expect(shelf.isDeleted)
        let fresh = ModelContext(try makeContainer(Shelf.self, at: directory.store()))
        let storedBox = try #require(try fresh.fetch(FetchDescriptor<Box>()).first)
        #expect(storedBox.shelf == nil)
    }

    @Test func cascadeFollowsManyToManyCyclesWithoutLooping() throws {
        let container = try makeInMemoryContainer(GraphNode.self)
        let context = ModelContext(container)
        let a = GraphNode(name: "a")
        let b = GraphNode(name: "b")
        let c = GraphNode(name: "c")
        let unrelated = GraphNode(name: "z")
        a.links = [b]
        b.links = [c, a]
        context.insert(a)
        context.insert(unrelated)
        #expect(a.backlinks.map(\.name) == ["b"])
        try context.save()
        context.delete(a)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<GraphNode>()).map(\.name) == ["z"])
    }

    @Test(arguments: [0, 4])
    func modelCountsOutsideTheLimitsAreRefused(count: Int) throws {
        let container = try makeInMemoryContainer(Team.self)
        let context = ModelContext(container)
        let team = Team(name: "Blue")
        team.members = (0..<count).map { Member(name: "m\($0)") }
        context.insert(team)
        let error = #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(error?.description.contains("Team.members holds \(count) model(s); it must hold 1...3") == true)
        team.members = [Member(name: "ok")]
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Team>()) == 1)
    }
}

@Suite struct BatchDeleteTests {
    @Test func batchDeleteAppliesDeleteRulesToRowsNeverLoaded() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let writer = ModelContext(container)
        for name in ["keep", "drop1", "drop2"] {
            let trip = Trip(name: name, destination: "x")
            trip.bucketList = [BucketListItem(title: "\(name)-item")]
            trip.tags = [TripTag(label: name)]
            writer.insert(trip)
        }
        try writer.save()

        let context = ModelContext(container)
        let registeredItem = try #require(
            try context.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.title == "drop1-item" })).first
        )
        let tag = try #require(
            try context.fetch(FetchDescriptor<TripTag>(predicate: #Predicate { $0.label == "drop2" })).first)
        try context.delete(model: Trip.self, where: #Predicate { $0.name.starts(with: "drop") })
        try context.save()

        #expect(registeredItem.isDeleted)
        #expect(tag.trips.isEmpty)
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<Trip>()).map(\.name) == ["keep"])
        #expect(try fresh.fetch(FetchDescriptor<BucketListItem>()).map(\.title) == ["keep-item"])
        #expect(try fresh.fetchCount(FetchDescriptor<TripTag>()) == 3)
    }
}
