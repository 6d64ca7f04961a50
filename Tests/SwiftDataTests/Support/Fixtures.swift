import Foundation
import SwiftData
import Testing

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

/// Two contexts on one in-memory container: `writer` inserted and saved `trip`, and `reader` fetched its own
/// instance of it, `seen`, for tests of what one context's saves do to another's models.
func savedInOneContextSeenInAnother(_ trip: Trip) throws -> (
    writer: ModelContext, reader: ModelContext, trip: Trip, seen: Trip
) {
    let container = try makeInMemoryContainer(Trip.self)
    let writer = ModelContext(container)
    let reader = ModelContext(container)
    writer.insert(trip)
    try writer.save()
    let seen = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
    return (writer, reader, trip, seen)
}
