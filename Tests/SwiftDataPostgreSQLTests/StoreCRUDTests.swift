import Foundation
import SwiftData
import Testing

/// Models inserted, read, changed and deleted on each store, and read again by a container opened anew, with every
/// kind of attribute the test models have.
@Suite struct StoreCRUDTests {
    /// Bytes too many to keep in a SQLite row: an `.externalStorage` attribute keeps them in a file there.
    static let largeData = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    private func trip(_ context: ModelContext, code: String) throws -> PGTrip {
        try #require(try context.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.code == code })).first)
    }

    @Test(arguments: TestedStore.available)
    func everyAttributeKindRoundTripsThroughAReopenedStore(store: TestedStore) throws {
        let location = try store.makeLocation()
        let context = ModelContext(try store.container(PGTrip.self, at: location))
        let full = PGTrip(
            code: "T1", name: "Fjords", startDate: Date(timeIntervalSinceReferenceDate: 1234.5678), budget: -99.25,
            isBooked: true, notes: "bring boots", rating: -4, kind: .business,
            place: PGPlace(city: "Bergen", latitude: 60.39))
        full.photo = Data([0, 1, 2, 255])
        full.brochure = Self.largeData
        full.color = PGColor(red: 200, green: 7)
        context.insert(full)
        context.insert(PGTrip(code: "T2", name: ""))
        try context.save()

        let reader = ModelContext(try store.container(PGTrip.self, at: location))
        let read = try trip(reader, code: "T1")
        #expect(read.persistentModelID == full.persistentModelID)
        #expect(read.name == "Fjords")
        #expect(read.startDate == Date(timeIntervalSinceReferenceDate: 1234.5678))
        #expect(read.budget == -99.25)
        #expect(read.isBooked)
        #expect(read.notes == "bring boots")
        #expect(read.rating == -4)
        #expect(read.kind == .business)
        #expect(read.place == PGPlace(city: "Bergen", latitude: 60.39))
        #expect(read.photo == Data([0, 1, 2, 255]))
        #expect(read.brochure == Self.largeData)
        #expect(read.color == PGColor(red: 200, green: 7))

        let plain = try trip(reader, code: "T2")
        #expect(plain.name == "")
        #expect(plain.startDate == Date(timeIntervalSinceReferenceDate: 0))
        #expect(plain.budget == 0)
        #expect(!plain.isBooked)
        #expect(plain.notes == nil)
        #expect(plain.rating == nil)
        #expect(plain.kind == .leisure)
        #expect(plain.place == PGPlace(city: "Oslo", latitude: 59.9))
        #expect(plain.photo == nil)
        #expect(plain.brochure == nil)
        #expect(plain.color == nil)
    }

    @Test(arguments: TestedStore.available)
    func updatesReachOtherContextsAndAReopenedStore(store: TestedStore) throws {
        let location = try store.makeLocation()
        let container = try store.container(PGTrip.self, at: location)
        let writer = ModelContext(container)
        let original = PGTrip(code: "T1", name: "Fjords", notes: "old", rating: 3)
        original.brochure = Self.largeData
        original.color = PGColor(red: 1, green: 2)
        writer.insert(original)
        try writer.save()

        let editor = ModelContext(container)
        let edited = try trip(editor, code: "T1")
        edited.name = "Fjords and glaciers"
        edited.startDate = Date(timeIntervalSinceReferenceDate: -86_400.25)
        edited.budget = 1e-9
        edited.isBooked = true
        edited.notes = nil
        edited.rating = 0
        edited.kind = .business
        edited.place = PGPlace(city: "Tromsø", latitude: 69.65)
        edited.photo = Data()
        edited.brochure = Data([9, 8, 7])
        edited.color = nil
        #expect(editor.hasChanges)
        try editor.save()
        #expect(!editor.hasChanges)

        for reader in [ModelContext(container), ModelContext(try store.container(PGTrip.self, at: location))] {
            let read = try trip(reader, code: "T1")
            #expect(read.name == "Fjords and glaciers")
            #expect(read.startDate == Date(timeIntervalSinceReferenceDate: -86_400.25))
            #expect(read.budget == 1e-9)
            #expect(read.isBooked)
            #expect(read.notes == nil)
            #expect(read.rating == 0)
            #expect(read.kind == .business)
            #expect(read.place == PGPlace(city: "Tromsø", latitude: 69.65))
            #expect(read.photo == Data())
            #expect(read.brochure == Data([9, 8, 7]))
            #expect(read.color == nil)
        }
    }

    @Test(arguments: TestedStore.available)
    func externalStorageKeepsLargeDataThroughChangesAndReopening(store: TestedStore) throws {
        let location = try store.makeLocation()
        let context = ModelContext(try store.container(PGTrip.self, at: location))
        let first = PGTrip(code: "A", name: "a")
        first.brochure = Self.largeData
        context.insert(first)
        try context.save()
        let replacement = Data(Self.largeData.reversed())

        let editor = ModelContext(try store.container(PGTrip.self, at: location))
        #expect(try trip(editor, code: "A").brochure == Self.largeData)
        try trip(editor, code: "A").brochure = replacement
        try editor.save()
        #expect(
            try trip(ModelContext(try store.container(PGTrip.self, at: location)), code: "A").brochure == replacement)

        try trip(editor, code: "A").brochure = nil
        try editor.save()
        #expect(try trip(ModelContext(try store.container(PGTrip.self, at: location)), code: "A").brochure == nil)
    }

    @Test(arguments: TestedStore.available)
    func deletedModelsAreGoneFromEveryContextAndAReopenedStore(store: TestedStore) throws {
        let location = try store.makeLocation()
        let container = try store.container(PGTrip.self, at: location)
        let context = ModelContext(container)
        for code in ["A", "B", "C"] { context.insert(PGTrip(code: code, name: code)) }
        try context.save()
        let deleter = ModelContext(container)
        let doomed = try trip(deleter, code: "B")
        let identifier = doomed.persistentModelID
        deleter.delete(doomed)
        #expect(deleter.deletedModelsArray.count == 1)
        try deleter.save()
        #expect(deleter.deletedModelsArray.isEmpty)

        for reader in [ModelContext(container), ModelContext(try store.container(PGTrip.self, at: location))] {
            let sorted = FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.code)])
            #expect(try reader.fetch(sorted).map(\.code) == ["A", "C"])
            #expect(try !reader.fetchIdentifiers(sorted).contains(identifier))
        }
    }
}
