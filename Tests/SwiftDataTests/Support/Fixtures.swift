import Foundation
import SwiftData

// A small travel domain shared by the tests: trips with items, tags and an accommodation.

@Model
final class Trip {
    var name: String
    var destination: String
    var startDate: Date
    var budget: Double
    var rating: Int?

    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip)
    var bucketList: [BucketListItem] = []

    @Relationship(deleteRule: .cascade)
    var livingAccommodation: LivingAccommodation?

    var tags: [TripTag] = []

    init(
        name: String, destination: String, startDate: Date = Date(timeIntervalSinceReferenceDate: 0), budget: Double = 0
    ) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.budget = budget
    }
}

@Model
final class BucketListItem {
    var title: String
    var isDone: Bool = false
    var trip: Trip?

    init(title: String) {
        self.title = title
    }
}

@Model
final class LivingAccommodation {
    var name: String
    var address: String
    var trip: Trip?

    init(name: String, address: String) {
        self.name = name
        self.address = address
    }
}

@Model
final class TripTag {
    @Attribute(.unique) var label: String
    var trips: [Trip] = []

    init(label: String) {
        self.label = label
    }
}
