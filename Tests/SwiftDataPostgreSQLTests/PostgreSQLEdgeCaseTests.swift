import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

@Model
final class PGPerson {
    var name: String

    init(name: String) {
        self.name = name
    }
}

@Model
final class PGProfile {
    #Unique<PGProfile>([\.person])
    var handle: String
    var person: PGPerson?

    init(handle: String, person: PGPerson?) {
        self.handle = handle
        self.person = person
    }
}

@Model
final class PGVenue {
    #Unique<PGVenue>([\.place])
    var place: PGPlace
    var label: String

    init(place: PGPlace, label: String) {
        self.place = place
        self.label = label
    }
}

/// Values and situations where PostgreSQL differs from SQLite and from Swift, each kept to Swift's answer or
/// refused with a typed error.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLEdgeCaseTests {
    @Test func aStringWithNULIsRefusedAndOverwritesNothing() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let context = ModelContext(container)
        context.insert(PGTrip(code: "a", name: "first"))
        try context.save()
        let writer = ModelContext(container)
        let trip = PGTrip(code: "a\u{0}b", name: "second")
        writer.insert(trip)
        #expect(throws: SwiftDataError.self) { try writer.save() }
        #expect(writer.insertedModelsArray.count == 1)
        let stored = try ModelContext(container).fetch(FetchDescriptor<PGTrip>())
        #expect(stored.map(\.code) == ["a"])
        #expect(stored.map(\.name) == ["first"])
    }

    @Test func canonicallyEquivalentUniqueStringsAreOneRow() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let first = ModelContext(container)
        first.insert(PGTrip(code: "caf\u{E9}", name: "precomposed"))
        try first.save()
        let second = ModelContext(container)
        second.insert(PGTrip(code: "cafe\u{301}", name: "decomposed"))
        try second.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<PGTrip>())
        #expect(stored.count == 1)
        #expect(stored.first?.name == "decomposed")
    }

    @Test func aUniqueToOneNamingAModelInsertedLaterInTheSaveUpserts() throws {
        let (container, _) = try makePostgreSQLContainer(PGProfile.self, PGPerson.self)
        let context = ModelContext(container)
        let person = PGPerson(name: "Ada")
        let first = PGProfile(handle: "first", person: nil)
        let second = PGProfile(handle: "second", person: nil)
        context.insert(first)
        context.insert(second)
        first.person = person
        second.person = person
        try context.save()
        let profiles = try ModelContext(container).fetch(FetchDescriptor<PGProfile>())
        #expect(profiles.count == 1)
        #expect(profiles.first?.handle == "second")
    }

    @Test func aUniqueCompositeAttributeComparesEveryField() throws {
        let (container, _) = try makePostgreSQLContainer(PGVenue.self)
        let context = ModelContext(container)
        context.insert(PGVenue(place: PGPlace(city: "Oslo", latitude: 59.9), label: "one"))
        context.insert(PGVenue(place: PGPlace(city: "Oslo", latitude: 60.0), label: "two"))
        try context.save()
        let again = ModelContext(container)
        again.insert(PGVenue(place: PGPlace(city: "Oslo", latitude: 59.9), label: "three"))
        try again.save()
        let venues = try ModelContext(container).fetch(FetchDescriptor<PGVenue>(sortBy: [SortDescriptor(\.label)]))
        #expect(venues.map(\.label) == ["three", "two"])
    }

    @Test func doublesReadBackExactlyWhateverTheServersDigitsSetting() throws {
        let database = try TestServer.makeDatabase()
        let name = try #require(database.path.split(separator: "/").last)
        try TestServer.execute("ALTER DATABASE \"\(name)\" SET extra_float_digits = 0", on: database)
        let (container, _) = try makePostgreSQLContainer(PGTrip.self, url: database)
        let context = ModelContext(container)
        let budget = 0.1 + 0.2
        let start = Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_78)
        context.insert(PGTrip(code: "x", name: "x", startDate: start, budget: budget))
        try context.save()
        let read = try #require(try ModelContext(container).fetch(FetchDescriptor<PGTrip>()).first)
        #expect(read.budget == budget)
        #expect(read.startDate == start)
    }

    @Test func savesAndFetchesReconnectAfterTheServerDroppedEveryConnection() throws {
        let (container, database) = try makePostgreSQLContainer(PGTrip.self)
        let context = ModelContext(container)
        context.insert(PGTrip(code: "before", name: "x"))
        try context.save()
        _ = try context.fetch(FetchDescriptor<PGTrip>())
        // What a restart does to the pool's idle connections.
        let name = try #require(database.path.split(separator: "/").last)
        let server = try #require(TestServer.url)
        try TestServer.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'", on: server)
        let after = ModelContext(container)
        after.insert(PGTrip(code: "after", name: "y"))
        try after.save()
        #expect(
            try ModelContext(container).fetch(FetchDescriptor<PGTrip>()).map(\.code).sorted() == ["after", "before"])
    }

    @Test func anIntegerDivisionByZeroMatchesNoRowAsInSQLite() throws {
        let (container, _) = try makePostgreSQLContainer(PGSample.self)
        let context = ModelContext(container)
        context.insert(PGSample(word: "a", note: nil, number: 4, amount: 0, flag: true, when: .distantPast))
        try context.save()
        let zero = 0
        let two = 2
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<PGSample>(predicate: #Predicate { $0.number / zero > 1 })) == 0)
        #expect(try reader.fetchCount(FetchDescriptor<PGSample>(predicate: #Predicate { $0.number / two == 2 })) == 1)
    }
}

@Model
final class PGScan {
    var name: String
    @Attribute(.externalStorage) var image: Data?

    init(name: String, image: Data?) {
        self.name = name
        self.image = image
    }
}

extension PostgreSQLEdgeCaseTests {
    /// External storage is kept in the row as bytes: every process on every machine reads it.
    @Test func externalStorageRoundTripsInTheRow() throws {
        let (container, database) = try makePostgreSQLContainer(PGScan.self)
        let context = ModelContext(container)
        let image = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        context.insert(PGScan(name: "big", image: image))
        context.insert(PGScan(name: "none", image: nil))
        try context.save()
        let reader = ModelContext(try makePostgreSQLContainer(PGScan.self, url: database).0)
        let scans = try reader.fetch(FetchDescriptor<PGScan>(sortBy: [SortDescriptor(\.name)]))
        #expect(scans.map(\.name) == ["big", "none"])
        #expect(scans.first?.image == image)
        #expect(scans.last?.image == nil)
    }

    /// What PostgreSQL cannot evaluate exactly runs in memory, and a fetch that forbids that throws.
    @Test func aPredicateOnlySwiftCanEvaluateIsRefusedInStrictMode() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let context = ModelContext(container)
        context.insert(PGTrip(code: "a", name: "Caf\u{E9} trip"))
        context.insert(PGTrip(code: "b", name: "Office"))
        try context.save()
        var descriptor = FetchDescriptor<PGTrip>(predicate: #Predicate { $0.name.localizedStandardContains("cafe") })
        #expect(try context.fetch(descriptor).map(\.code) == ["a"])
        descriptor.allowsInMemoryEvaluation = false
        #expect(throws: SwiftDataError.unsupportedPredicate) { try context.fetch(descriptor) }
    }
}
