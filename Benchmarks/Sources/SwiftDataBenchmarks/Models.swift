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
