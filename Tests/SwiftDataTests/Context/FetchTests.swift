import Foundation
import SwiftData
import Testing

/// A model whose transient property's default value is another model, created while a fetch makes the sheet.
@Model
final class Sheet {
    var title: String
    @Transient var draft = Note(text: "draft")

    init(title: String) { self.title = title }
}

@Model
final class Note {
    var text: String

    init(text: String) { self.text = text }
}

@Suite struct FetchTests {
    /// Five trips with distinct budgets and dates; one has no rating.
    func seededContext() throws -> ModelContext {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        let rows: [(String, String, Double, Int?)] = [
            ("Paris", "France", 500, 4), ("Lyon", "France", 300, 3), ("Rome", "Italy", 800, 5),
            ("Oslo", "Norway", 1200, nil), ("Nice", "France", 700, 2),
        ]
        for (index, row) in rows.enumerated() {
            let trip = Trip(
                name: row.0, destination: row.1,
                startDate: Date(timeIntervalSinceReferenceDate: Double(index) * 86_400), budget: row.2)
            trip.rating = row.3
            context.insert(trip)
        }
        try context.save()
        return context
    }

    @Test func predicateAndSortRunInSQL() throws {
        let context = try seededContext()
        let descriptor = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.destination == "France" && $0.budget > 400 },
            sortBy: [SortDescriptor(\.budget, order: .reverse)]
        )
        #expect(try context.fetch(descriptor).map(\.name) == ["Nice", "Paris"])
        #expect(try context.fetchCount(descriptor) == 2)
        #expect(try context.fetchIdentifiers(descriptor).count == 2)
    }

    @Test func limitAndOffsetPage() throws {
        let context = try seededContext()
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])
        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 2
        #expect(try context.fetch(descriptor).map(\.name) == ["Lyon", "Rome"])
        descriptor.fetchOffset = 5
        #expect(try context.fetch(descriptor).isEmpty)
        #expect(try context.fetchCount(descriptor) == 0)
    }

    @Test func optionalsCompareLikeSwift() throws {
        let context = try seededContext()
        let unrated = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.rating == nil }))
        #expect(unrated.map(\.name) == ["Oslo"])
        let rated = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { !($0.rating == nil) }))
        #expect(rated.count == 4)
        let notThree = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.rating != 3 }))
        #expect(notThree.count == 4)
        let sorted = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.rating)]))
        #expect(sorted.map(\.name) == ["Oslo", "Nice", "Lyon", "Paris", "Rome"])
    }

    @Test func capturedCollectionsBecomeIn() throws {
        let context = try seededContext()
        let names = ["Rome", "Oslo", "Nowhere"]
        let found = try context.fetch(
            FetchDescriptor<Trip>(predicate: #Predicate { names.contains($0.name) }, sortBy: [SortDescriptor(\.name)])
        )
        #expect(found.map(\.name) == ["Oslo", "Rome"])
    }

    @Test func predicatesWithoutSQLFormRunInMemory() throws {
        let context = try seededContext()
        let descriptor = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.name.starts(with: "N") || $0.bucketList.isEmpty == false },
            sortBy: [SortDescriptor(\.name)]
        )
        #expect(try context.fetch(descriptor).map(\.name) == ["Nice"])
    }

    @Test func pendingChangesTakePartUnlessExcluded() throws {
        let context = try seededContext()
        let rome = try #require(
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Rome" })).first)
        rome.destination = "France"
        context.insert(Trip(name: "Brest", destination: "France", budget: 50))
        let paris = try #require(
            try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Paris" })).first)
        context.delete(paris)
        let france = FetchDescriptor<Trip>(
            predicate: #Predicate { $0.destination == "France" }, sortBy: [SortDescriptor(\.budget)])
        #expect(try context.fetch(france).map(\.name) == ["Brest", "Lyon", "Nice", "Rome"])
        var persisted = france
        persisted.includePendingChanges = false
        #expect(try context.fetch(persisted).map(\.name).sorted() == ["Lyon", "Nice", "Paris"])
    }

    @Test func enumerateVisitsEveryModelInBatches() throws {
        let context = try seededContext()
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 2) {
            names.append($0.name)
        }
        #expect(names == ["Lyon", "Nice", "Oslo", "Paris", "Rome"])
        context.insert(Trip(name: "Dirty", destination: "Z"))
        #expect(throws: SwiftDataError.modelValidationFailure) {
            try context.enumerate(FetchDescriptor<Trip>()) { _ in }
        }
    }

    /// A block that changes what the enumeration sorts by moves no model into a later batch and none out of it:
    /// each model that matched is delivered once, in the order it had when the enumeration began.
    @Test func enumerateDeliversEachModelOnceWhenTheBlockChangesTheOrder() throws {
        let context = try seededContext()
        var names: [String] = []
        try context.enumerate(
            FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 2, allowEscapingMutations: true
        ) { trip in
            names.append(trip.name)
            trip.name = "z" + trip.name
        }
        #expect(names == ["Lyon", "Nice", "Oslo", "Paris", "Rome"])
    }

    /// Over a context with unsaved changes: an inserted model takes its place, a deleted one is left out, and so
    /// is one the block deletes before its turn; offset and limit count as a fetch counts them.
    @Test func enumerateOverUnsavedChangesMatchesFetch() throws {
        let context = try seededContext()
        context.insert(Trip(name: "Bern", destination: "Switzerland"))
        let rome = try #require(try context.fetch(FetchDescriptor<Trip>()).first { $0.name == "Rome" })
        context.delete(rome)
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        var names: [String] = []
        try context.enumerate(descriptor, batchSize: 2, allowEscapingMutations: true) { names.append($0.name) }
        #expect(names == ["Bern", "Lyon", "Nice", "Oslo", "Paris"])

        descriptor.fetchOffset = 1
        descriptor.fetchLimit = 3
        names = []
        try context.enumerate(descriptor, batchSize: 2, allowEscapingMutations: true) { trip in
            names.append(trip.name)
            if trip.name == "Lyon" {
                context.delete(try #require(try context.fetch(FetchDescriptor<Trip>()).first { $0.name == "Oslo" }))
            }
        }
        #expect(names == ["Lyon", "Nice"])
    }

    /// A model another context deletes while the enumeration runs is left out of the batches read after the save,
    /// even while this context holds it.
    @Test func enumerateLeavesOutAModelDeletedElsewhereBeforeItsBatch() throws {
        let context = try seededContext()
        let held = try context.fetch(FetchDescriptor<Trip>())
        let other = ModelContext(context.container)
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), batchSize: 2) { trip in
            names.append(trip.name)
            guard trip.name == "Lyon" else { return }
            let rome = try other.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Rome" }))
            other.delete(try #require(rome.first))
            try other.save()
        }
        #expect(names == ["Lyon", "Nice", "Oslo", "Paris"])
        #expect(held.count == 5)
    }

    @Test func deleteWhereRemovesMatchingModels() throws {
        let context = try seededContext()
        try context.delete(model: Trip.self, where: #Predicate { $0.destination == "France" })
        try context.save()
        #expect(
            try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Oslo", "Rome"])
    }

    /// A fetched model is made with its class's `init(backingData:)`, which stores the declared default values
    /// (`isDone = false`, `bucketList = []`) through the backing data first: the row's values must replace them,
    /// and fetching must leave the model and the context without changes.
    @Test func fetchedModelsKeepStoredValuesOverDeclaredDefaults() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let writer = ModelContext(container)
        let trip = Trip(name: "Paris", destination: "France")
        let item = BucketListItem(title: "Louvre")
        item.isDone = true
        writer.insert(trip)
        trip.bucketList = [item]
        try writer.save()

        let reader = ModelContext(container)
        let fetchedItem = try #require(try reader.fetch(FetchDescriptor<BucketListItem>()).first)
        #expect(fetchedItem.isDone)
        #expect(fetchedItem.trip?.name == "Paris")
        let fetchedTrip = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        #expect(fetchedTrip.bucketList.map(\.title) == ["Louvre"])
        #expect(!fetchedItem.hasChanges && !fetchedTrip.hasChanges)
        #expect(!reader.hasChanges)
    }

    /// A fetched model's backing data is handed to it alone: a model its initializer creates on the side (here a
    /// transient default value) gets backing data of its own.
    @Test func modelsCreatedWhileAFetchedModelInitializesGetTheirOwnBackingData() throws {
        let container = try makeInMemoryContainer(Sheet.self, Note.self)
        let writer = ModelContext(container)
        writer.insert(Sheet(title: "Plan"))
        try writer.save()

        let sheet = try #require(try ModelContext(container).fetch(FetchDescriptor<Sheet>()).first)
        #expect(sheet.title == "Plan")
        #expect(sheet.draft.text == "draft")
        #expect(sheet.draft.modelContext == nil)
        #expect(sheet.draft.persistentModelID != sheet.persistentModelID)
    }
}
