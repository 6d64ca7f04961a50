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
