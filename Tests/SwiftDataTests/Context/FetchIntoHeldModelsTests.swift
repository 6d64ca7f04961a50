import Foundation
import Observation
import Testing

@testable import SwiftData

/// Fetches into a context that already holds some of the rows' models.
@Suite struct FetchIntoHeldModelsTests {
    /// A store of four gadgets, g1 to g4, with keys and serials 1 to 4.
    private func storeOfFourGadgets(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.store()
        let context = ModelContext(try makeContainer(Gadget.self, at: url))
        for serial in 1...4 { context.insert(Gadget(name: "g\(serial)", serial: serial)) }
        try context.save()
        return url
    }

    private let bySerial = FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.serial)])

    /// The gadget with a serial, fetched into `context`, which holds it from then on.
    private func gadget(serial: Int, in context: ModelContext) throws -> Gadget {
        try #require(try context.fetch(FetchDescriptor<Gadget>(predicate: #Predicate { $0.serial == serial })).first)
    }

    /// The held models come back as they are, the unchanged one refreshed with what another program stored and the
    /// changed one keeping its unsaved value; the other rows get new models, registered once.
    @Test func heldModelsAreReturnedRefreshedAndTheOtherRowsGetNewModels() throws {
        let directory = try TemporaryDirectory()
        let url = try storeOfFourGadgets(in: directory)
        let context = ModelContext(try makeContainer(Gadget.self, at: url))
        let unchanged = try gadget(serial: 1, in: context)
        let changed = try gadget(serial: 3, in: context)
        changed.name = "mine"
        try runSQLite(
            url, "UPDATE Gadget SET name = 'renamed' WHERE rowid = 1; UPDATE Gadget SET name = 'theirs' WHERE rowid = 3"
        )

        let all = try context.fetch(bySerial)
        #expect(all.map(\.serial) == [1, 2, 3, 4])
        #expect(all[0] === unchanged)
        #expect(all[2] === changed)
        #expect(all.map(\.name) == ["renamed", "g2", "mine", "g4"])
        #expect(context.registered.count == 4)
        let again = try context.fetch(bySerial)
        let sameModels = again.elementsEqual(all, by: ===)
        #expect(sameModels)
    }

    /// Refreshing a held model notifies its observers, and an observer that fetches the same rows then gets the
    /// models the outer fetch returns: the new models are registered before any held model is refreshed. The
    /// observer runs before the value changes, so its fetch once refreshed the same model again, which notified
    /// the observer again, until the stack overflowed; a model being refreshed is now left to that refresh.
    @Test func anObserverThatFetchesDuringARefreshGetsTheSameModels() throws {
        let directory = try TemporaryDirectory()
        let url = try storeOfFourGadgets(in: directory)
        let context = ModelContext(try makeContainer(Gadget.self, at: url))
        let held = try gadget(serial: 1, in: context)
        try runSQLite(url, "UPDATE Gadget SET name = 'renamed' WHERE rowid = 1")

        nonisolated(unsafe) var seenByObserver: [Gadget] = []
        nonisolated(unsafe) let observedContext = context
        let descriptor = bySerial
        // Safe: onChange runs synchronously on this thread, during the fetch below.
        withObservationTracking({ _ = held.name }) {
            seenByObserver = (try? observedContext.fetch(descriptor)) ?? []
        }
        let all = try context.fetch(bySerial)
        #expect(all.map(\.name) == ["renamed", "g2", "g3", "g4"])
        #expect(seenByObserver.count == 4)
        let sameModels = seenByObserver.elementsEqual(all, by: ===)
        #expect(sameModels)
        #expect(context.registered.count == 4)
    }

    /// A relationship read lazily gives the related models the context holds, as they are, and new models for the
    /// others.
    @Test func aRelationshipLoadGivesTheHeldRelatedModelsAndNewOnesForTheRest() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Trip.self, at: url))
            let trip = Trip(name: "Lapland", destination: "Inari")
            context.insert(trip)
            trip.bucketList = ["a", "b", "c"].map { BucketListItem(title: $0) }
            try context.save()
        }
        let context = ModelContext(try makeContainer(Trip.self, at: url))
        let held = try #require(
            try context.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.title == "b" })).first)
        held.isDone = true
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)

        let items = trip.bucketList.sorted { $0.title < $1.title }
        #expect(items.map(\.title) == ["a", "b", "c"])
        #expect(items[1] === held)
        #expect(items.map(\.isDone) == [false, true, false])
        #expect(items.allSatisfy { $0.trip === trip })
    }
}
