import Foundation
import SwiftData

@Model
final class PGTrip {
    #Unique<PGTrip>([\.code])
    var code: String
    var name: String
    var startDate: Date
    var budget: Double
    var isBooked: Bool
    var notes: String?
    var rating: Int?
    var kind: PGKind
    var place: PGPlace
    var photo: Data?
    @Attribute(.externalStorage) var brochure: Data?
    @Attribute(.transformable(by: PGColorTransformer.self)) var color: PGColor?
    @Relationship(deleteRule: .cascade, inverse: \PGStop.trip) var stops: [PGStop] = []
    @Relationship(inverse: \PGTag.trips) var tags: [PGTag] = []

    init(
        code: String, name: String, startDate: Date = Date(timeIntervalSinceReferenceDate: 0), budget: Double = 0,
        isBooked: Bool = false, notes: String? = nil, rating: Int? = nil, kind: PGKind = .leisure,
        place: PGPlace = PGPlace(city: "Oslo", latitude: 59.9)
    ) {
        self.code = code
        self.name = name
        self.startDate = startDate
        self.budget = budget
        self.isBooked = isBooked
        self.notes = notes
        self.rating = rating
        self.kind = kind
        self.place = place
    }
}

enum PGKind: String, Codable {
    case leisure, business
}

struct PGPlace: Codable, Hashable {
    var city: String
    var latitude: Double
}

/// A colour that is not `Codable`: stored through `PGColorTransformer`.
final class PGColor: Equatable {
    let red: UInt8
    let green: UInt8

    init(red: UInt8, green: UInt8) {
        self.red = red
        self.green = green
    }

    static func == (lhs: PGColor, rhs: PGColor) -> Bool { lhs.red == rhs.red && lhs.green == rhs.green }
}

final class PGColorTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? PGColor).map { Data([$0.red, $0.green]) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 2 else { return nil }
        return PGColor(red: data[data.startIndex], green: data[data.startIndex + 1])
    }
}

@Model
final class PGStop {
    var title: String
    var order: Int
    var trip: PGTrip?

    init(title: String, order: Int) {
        self.title = title
        self.order = order
    }
}

@Model
final class PGTag {
    var label: String
    var trips: [PGTrip] = []

    init(label: String) {
        self.label = label
    }
}

@Model
final class PGContact {
    #Unique<PGContact>([\.given, \.family])
    #Index<PGContact>([\.family], [\.city, \.family])

    var given: String
    var family: String
    var city: String
    var phone: String

    init(given: String, family: String, city: String = "", phone: String = "") {
        self.given = given
        self.family = family
        self.city = city
        self.phone = phone
    }
}
