import Foundation
import SwiftData

@Model
final class BenchItem {
    #Index<BenchItem>([\.number])
    var number: Int
    var shortText: String
    var longText: String
    var flag: Bool
    var value: Double
    var date: Date

    init(number: Int) {
        self.number = number
        self.shortText = "short text number \(number % 1_000_000)"
        self.longText = "a longer piece of text that stands for a description, item \(number)"
        self.flag = number % 2 == 0
        self.value = Double(number) * 0.5
        self.date = Date(timeIntervalSinceReferenceDate: Double(number))
    }
}

@Model
final class BenchUnique {
    @Attribute(.unique) var key: Int
    var text: String

    init(key: Int, text: String) {
        self.key = key
        self.text = text
    }
}

@Model
final class BenchParent {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \BenchChild.parent) var children: [BenchChild] = []
    init(name: String) { self.name = name }
}

@Model
final class BenchChild {
    var value: Int
    var parent: BenchParent?
    init(value: Int) { self.value = value }
}

/// The raw table equal to `BenchItem`'s.
let rawItemTable = """
    CREATE TABLE items (id INTEGER PRIMARY KEY, number INTEGER NOT NULL, shortText TEXT NOT NULL,
    longText TEXT NOT NULL, flag INTEGER NOT NULL, value REAL NOT NULL, date REAL NOT NULL);
    CREATE INDEX items_number ON items (number)
    """

/// The raw tables equal to `BenchParent`'s and `BenchChild`'s.
let rawParentChildTables = """
    CREATE TABLE parents (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE children (id INTEGER PRIMARY KEY, value INTEGER NOT NULL, parent INTEGER);
    CREATE INDEX children_parent ON children (parent)
    """

/// A plain struct the raw baseline reads rows into, as an app would.
struct RawItem {
    var id: Int64
    var number: Int
    var shortText: String
    var longText: String
    var flag: Bool
    var value: Double
    var date: Date
}

/// A parent row read raw, with its children: what `BenchParent` is to the models.
struct RawParent {
    var id: Int64
    var name: String
    var children: [RawChild]
}

/// A child row read raw.
struct RawChild {
    var id: Int64
    var value: Int
}

/// An enumeration stored by its raw value, for W15.
enum BenchKind: Int, Codable {
    case small, medium, large
}

/// A struct stored as a composite attribute (a column per field), for W15.
struct BenchSize: Codable, Hashable {
    var width: Double
    var height: Double
}

/// The model a rich entity's items belong to, for W15.
@Model
final class BenchOwner {
    var name: String
    @Relationship(inverse: \BenchRich.owner) var items: [BenchRich] = []
    init(name: String) { self.name = name }
}

/// An entity with the attribute kinds apps use beside plain values: an enumeration, an optional, a `Codable` struct
/// and a to-one relationship.
@Model
final class BenchRich {
    var number: Int
    var kind: BenchKind
    var note: String?
    var size: BenchSize
    var owner: BenchOwner?

    init(number: Int, owner: BenchOwner?) {
        self.number = number
        self.kind = BenchKind(rawValue: number % 3) ?? .small
        self.note = number % 4 == 0 ? nil : "note \(number)"
        self.size = BenchSize(width: Double(number % 100), height: Double(number % 37))
        self.owner = owner
    }
}

/// The raw tables equal to `BenchRich`'s and `BenchOwner`'s.
let rawRichTables = """
    CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE rich (id INTEGER PRIMARY KEY, number INTEGER NOT NULL, kind INTEGER NOT NULL, note TEXT,
    width REAL NOT NULL, height REAL NOT NULL, owner INTEGER REFERENCES owners (id));
    CREATE INDEX rich_owner ON rich (owner)
    """

/// A plain struct the raw baseline reads a rich row into, with its owner's name.
struct RawRich {
    var id: Int64
    var number: Int
    var kind: BenchKind
    var note: String?
    var size: BenchSize
    var ownerName: String?
}
