import Foundation
import SwiftData

// Small models, one per relationship shape the relationship tests cover.

@Model
final class Airport {
    var code: String
    @Relationship(inverse: \Flight.origin) var departures: [Flight] = []
    @Relationship(inverse: \Flight.destination) var arrivals: [Flight] = []
    init(code: String) { self.code = code }
}

@Model
final class Flight {
    var number: String
    var origin: Airport?
    var destination: Airport?
    init(number: String) { self.number = number }
}

@Model
final class Owner {
    var name: String
    @Relationship(inverse: nil) var pets: [Pet] = []
    init(name: String) { self.name = name }
}

@Model
final class Pet {
    var name: String
    var owner: Owner?
    init(name: String) { self.name = name }
}

@Model
final class Resident {
    var name: String
    var home: Residence?
    var work: Residence?
    init(name: String) { self.name = name }
}

@Model
final class Residence {
    var street: String
    var residents: [Resident] = []
    init(street: String) { self.street = street }
}

@Model
final class Library {
    var name: String
    @Relationship(deleteRule: .deny) var books: [Book] = []
    init(name: String) { self.name = name }
}

@Model
final class Book {
    var title: String
    var library: Library?
    init(title: String) { self.title = title }
}

@Model
final class Shelf {
    var label: String
    @Relationship(deleteRule: .noAction) var boxes: [Box] = []
    init(label: String) { self.label = label }
}

@Model
final class Box {
    var label: String
    var shelf: Shelf?
    init(label: String) { self.label = label }
}

@Model
final class Team {
    var name: String
    @Relationship(minimumModelCount: 1, maximumModelCount: 3) var members: [Member] = []
    init(name: String) { self.name = name }
}

@Model
final class Member {
    var name: String
    var team: Team?
    init(name: String) { self.name = name }
}

@Model
final class Album {
    var title: String
    var photos: [Photo]?
    init(title: String) { self.title = title }
}

@Model
final class Photo {
    var caption: String
    var album: Album?
    init(caption: String) { self.caption = caption }
}

@Model
final class GraphNode {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \GraphNode.backlinks) var links: [GraphNode] = []
    var backlinks: [GraphNode] = []
    init(name: String) { self.name = name }
}
