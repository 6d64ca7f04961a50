import Foundation
import Testing

@testable import SwiftData

/// A context that never fetches or saves holds a bounded record of other contexts' saves, and `savedChanges()`
/// streams buffer a bounded number of saves.
@Suite struct InboxBoundTests {
    @Test func repeatedSavesOfOneModelTakeOneIdentifierInAnIdleContextsInbox() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let idle = ModelContext(container)
        let writer = ModelContext(container)
        let trip = Trip(name: "A", destination: "X")
        writer.insert(trip)
        try writer.save()
        for index in 0..<100 {
            trip.name = "name \(index)"
            try writer.save()
        }
        #expect(idle.inbox.heldIdentifierCount <= 1)
    }

    @Test func anInboxPastItsLimitStillAppliesEveryChangeAndDeletion() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let reader = ModelContext(container)
        let writer = ModelContext(container)
        for index in 0..<30 { writer.insert(Trip(name: "t\(index)", destination: "X")) }
        try writer.save()
        let held = try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        reader.inbox.limit = 10
        let written = try writer.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        for trip in written.prefix(20) {
            trip.destination = "Y"
            try writer.save()
        }
        for trip in written.suffix(5) { writer.delete(trip) }
        try writer.save()
        #expect(reader.inbox.heldIdentifierCount <= 10)

        _ = try reader.fetchCount(FetchDescriptor<LivingAccommodation>())
        #expect(held.prefix(20).allSatisfy { $0.destination == "Y" })
        #expect(held.suffix(5).allSatisfy { $0.isDeleted })
        #expect(held.dropFirst(20).prefix(5).allSatisfy { !$0.isDeleted && $0.destination == "X" })
        #expect(try reader.fetchCount(FetchDescriptor<Trip>()) == 25)
    }

    @Test func aSavedChangesStreamKeepsTheNewestSavesWhenItsConsumerLags() async throws {
        let container = try makeInMemoryContainer(Trip.self)
        let stream = container.savedChanges()
        let writer = ModelContext(container)
        let saves = ChangeBroadcaster.bufferedSaves + 50
        for index in 0..<saves {
            writer.author = index == saves - 1 ? "last" : nil
            writer.insert(Trip(name: "t\(index)", destination: "X"))
            try writer.save()
        }
        var received = 0
        for await changes in stream {
            received += 1
            if changes.author == "last" { break }
        }
        #expect(received == ChangeBroadcaster.bufferedSaves)
    }
}
