import Foundation
import SwiftData

// The trips of WWDC24's SampleTrips app, reduced to what the example shows: a trip and the items of its bucket list.

@Model
final class Trip {
    var name: String
    var destination: String
    var startDate: Date
    var endDate: Date

    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip)
    var bucketList: [BucketListItem] = []

    init(name: String, destination: String, startDate: Date, endDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }
}

@Model
final class BucketListItem {
    var title: String
    var isInPlan: Bool
    var trip: Trip?

    init(title: String, isInPlan: Bool = false) {
        self.title = title
        self.isInPlan = isInPlan
    }
}
