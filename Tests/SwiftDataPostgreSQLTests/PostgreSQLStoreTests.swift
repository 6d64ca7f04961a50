import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLStoreTests {
    @Test func insertFetchUpdateDeleteAndReopen() throws {
        let (container, database) = try makePostgreSQLContainer(PGTrip.self)
        let context = ModelContext(container)
        let trip = PGTrip(
            code: "T1", name: "Fjords", startDate: Date(timeIntervalSinceReferenceDate: 1234.5678), budget: 99.25,
            isBooked: true, notes: nil, rating: 4, kind: .business, place: PGPlace(city: "Bergen", latitude: 60.39))
        trip.photo = Data([0, 1, 2, 255])
        context.insert(trip)
        trip.stops = [PGStop(title: "Flåm", order: 2), PGStop(title: "Voss", order: 1)]
        let tag = PGTag(label: "summer")
        trip.tags = [tag]
        context.insert(PGTrip(code: "T2", name: "Alps", budget: 10))
        try context.save()

        // A new container reads what the first wrote.
        let (reopened, _) = try makePostgreSQLContainer(PGTrip.self, url: database)
        let reader = ModelContext(reopened)
        let read = try #require(
            try reader.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.code == "T1" })).first)
        #expect(read.name == "Fjords")
        #expect(read.startDate == Date(timeIntervalSinceReferenceDate: 1234.5678))
        #expect(read.budget == 99.25)
        #expect(read.isBooked)
        #expect(read.notes == nil)
        #expect(read.rating == 4)
        #expect(read.kind == .business)
        #expect(read.place == PGPlace(city: "Bergen", latitude: 60.39))
        #expect(read.photo == Data([0, 1, 2, 255]))
        #expect(read.stops.map(\.title).sorted() == ["Flåm", "Voss"])
        #expect(read.tags.map(\.label) == ["summer"])
        #expect(read.persistentModelID == trip.persistentModelID)

        let sorted = try reader.fetch(FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.budget, order: .reverse)]))
        #expect(sorted.map(\.code) == ["T1", "T2"])
        #expect(try reader.fetchCount(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.budget > 50 })) == 1)

        read.name = "Fjords and glaciers"
        read.notes = "bring boots"
        try reader.save()
        let other = ModelContext(container)
        let updated = try #require(
            try other.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.code == "T1" })).first)
        #expect(updated.name == "Fjords and glaciers")
        #expect(updated.notes == "bring boots")

        // Deleting cascades to the stops and unlinks the tag.
        other.delete(updated)
        try other.save()
        let last = ModelContext(container)
        #expect(try last.fetch(FetchDescriptor<PGTrip>()).map(\.code) == ["T2"])
        #expect(try last.fetchCount(FetchDescriptor<PGStop>()) == 0)
        let tags = try last.fetch(FetchDescriptor<PGTag>())
        #expect(tags.map(\.label) == ["summer"])
        #expect(tags.first?.trips.isEmpty == true)
    }

    @Test func aUniqueValueSavedAgainUpdatesItsRow() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let first = ModelContext(container)
        first.insert(PGTrip(code: "SAME", name: "first"))
        try first.save()
        let second = ModelContext(container)
        second.insert(PGTrip(code: "SAME", name: "second", budget: 7))
        second.insert(PGTrip(code: "OTHER", name: "other"))
        try second.save()
        let trips = try ModelContext(container).fetch(FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.code)]))
        #expect(trips.map(\.code) == ["OTHER", "SAME"])
        #expect(trips.last?.name == "second")
        #expect(trips.last?.budget == 7)
    }

    @Test func twoContainersSavingOneUniqueValueAtOnceEndWithOneRow() async throws {
        let database = try TestServer.makeDatabase()
        let (one, _) = try makePostgreSQLContainer(PGTrip.self, url: database)
        let (two, _) = try makePostgreSQLContainer(PGTrip.self, url: database)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, container) in [one, two, one, two].enumerated() {
                group.addTask {
                    let context = ModelContext(container)
                    for round in 0..<20 {
                        context.insert(PGTrip(code: "K\(round % 5)", name: "writer \(index)"))
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        let codes = try ModelContext(one).fetch(FetchDescriptor<PGTrip>()).map(\.code).sorted()
        #expect(codes == ["K0", "K1", "K2", "K3", "K4"])
    }

    @Test func stringsCompareAsSwiftComparesThem() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let context = ModelContext(container)
        // "é" precomposed and decomposed are one string to Swift.
        for (code, name) in [("A", "caf\u{E9}"), ("B", "cafe\u{301}"), ("C", "cafe"), ("D", "Zebra"), ("E", "apple")] {
            context.insert(PGTrip(code: code, name: name))
        }
        try context.save()
        let reader = ModelContext(container)
        let target = "caf\u{E9}"
        let equal = try reader.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.name == target }))
        #expect(equal.map(\.code).sorted() == ["A", "B"])
        let all = try reader.fetch(FetchDescriptor<PGTrip>())
        let sorted = try reader.fetch(
            FetchDescriptor<PGTrip>(sortBy: [SortDescriptor(\.name), SortDescriptor(\.code)]))
        #expect(sorted.map(\.code) == all.sorted(using: [SortDescriptor(\.name), SortDescriptor(\.code)]).map(\.code))
        // `contains` over characters runs in memory, with Swift's answer.
        let containing = try reader.fetch(FetchDescriptor<PGTrip>(predicate: #Predicate { $0.name.contains("e") }))
        #expect(containing.map(\.code).sorted() == all.filter { $0.name.contains("e") }.map(\.code).sorted())
    }

    @Test func aSaveOfARowDeletedElsewhereThrowsAndKeepsTheChange() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let writer = ModelContext(container)
        writer.insert(PGTrip(code: "X", name: "x"))
        try writer.save()
        let editor = ModelContext(container)
        let trip = try #require(try editor.fetch(FetchDescriptor<PGTrip>()).first)
        let deleter = ModelContext(container)
        try deleter.delete(model: PGTrip.self)
        try deleter.save()
        trip.name = "edited"
        #expect(throws: SwiftDataError.self) { try editor.save() }
        #expect(editor.hasChanges)
        #expect(trip.name == "edited")
    }

    @Test func aStoreOfAnotherSchemaIsRefusedWithATypedError() throws {
        let database = try TestServer.makeDatabase()
        try TestServer.execute("CREATE TABLE invoices (id integer)", on: database)
        do {
            _ = try makePostgreSQLContainer(PGTrip.self, url: database)
            Issue.record("a database of another program opened")
        } catch let error as SwiftDataError {
            #expect(error == .loadIssueModelContainer)
            #expect((error.underlyingError as? PostgreSQLError)?.kind == .foreignSchema)
            #expect(error.description.contains("invoices"))
        }
    }
}

/// Two stores in one database, each in a schema of its own.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLSchemasTests {
    /// The URI of a database with a search path.
    private func url(_ database: URL, schema: String) throws -> URL {
        var components = try #require(URLComponents(url: database, resolvingAgainstBaseURL: false))
        components.queryItems =
            (components.queryItems ?? []) + [URLQueryItem(name: "options", value: "-csearch_path=\(schema)")]
        return try #require(components.url)
    }

    /// Each store's saves take locks of its own: a save that spans both does not wait for itself.
    @Test func aSaveAcrossTwoStoresOfOneDatabaseCommitsBoth() throws {
        let database = try TestServer.makeDatabase()
        try TestServer.execute("CREATE SCHEMA notes", on: database)
        try TestServer.execute("CREATE SCHEMA tags", on: database)
        let container = try ModelContainer(
            for: Schema([PGNote.self, PGTag.self]),
            configurations: [
                PostgreSQLConfiguration(
                    "notes", schema: Schema([PGNote.self]), url: try url(database, schema: "notes")),
                PostgreSQLConfiguration("tags", schema: Schema([PGTag.self]), url: try url(database, schema: "tags")),
            ])
        let context = ModelContext(container)
        context.insert(PGNote(title: "n", body: ""))
        context.insert(PGTag(label: "t"))
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<PGNote>()) == 1)
        #expect(try reader.fetchCount(FetchDescriptor<PGTag>()) == 1)
        #expect(try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 2)
    }
}
