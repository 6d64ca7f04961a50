import Foundation
import JSONStoreKit
import SwiftData

// A runnable tour of a custom store: the same SwiftData code as with the default store, with the models kept in a
// JSON file by `JSONStore`. Only the configuration changes.

let fileURL = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "trips.json")
try? FileManager.default.removeItem(at: fileURL)
let schema = Schema([Trip.self, BucketListItem.self])
let configuration = JSONStoreConfiguration(name: "Trips", schema: schema, fileURL: fileURL)

func day(_ offset: Double) -> Date { Date(timeIntervalSinceReferenceDate: 780_000_000 + offset * 86_400) }

do {
    do {
        let container = try ModelContainer(for: schema, configurations: [configuration])
        let context = ModelContext(container)
        let lisbon = Trip(name: "Lisbon", destination: "Portugal", startDate: day(10), endDate: day(14))
        context.insert(lisbon)
        lisbon.bucketList = [BucketListItem(title: "Tram 28", isInPlan: true), BucketListItem(title: "Pastéis")]
        context.insert(Trip(name: "Kyoto", destination: "Japan", startDate: day(40), endDate: day(50)))
        context.insert(Trip(name: "Oslo", destination: "Norway", startDate: day(2), endDate: day(4)))
        try context.save()
        print("Saved \(try context.fetchCount(FetchDescriptor<Trip>())) trips to \(fileURL.path)")
    }

    do {
        // Reopened: the store cannot filter or sort, so SwiftData does it with the store's snapshots.
        let container = try ModelContainer(for: schema, configurations: [configuration])
        let context = ModelContext(container)
        let soon = day(5)
        let upcoming = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.startDate > soon }, sortBy: [SortDescriptor(\.startDate)])
        for trip in try context.fetch(upcoming) {
            let items = trip.bucketList.map(\.title).sorted().joined(separator: ", ")
            print("Upcoming: \(trip.name) (\(trip.destination))\(items.isEmpty ? "" : " with \(items)")")
        }
        let oslo = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" }))
        for trip in oslo { context.delete(trip) }
        try context.save()
    }

    do {
        let container = try ModelContainer(for: schema, configurations: [configuration])
        let names = try ModelContext(container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        print("After deleting Oslo: \(names.map(\.name).joined(separator: ", "))")
    }
} catch {
    FileHandle.standardError.write(Data("json-store-example: \(error)\n".utf8))
    exit(1)
}
