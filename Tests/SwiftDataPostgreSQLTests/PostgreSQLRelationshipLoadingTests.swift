import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// To-many relationships of a fetch's models load in one query per batch of owners, as on SQLite.
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLRelationshipLoadingTests {
    @Test func lazyToManyRelationshipsLoadForTheWholeFetch() throws {
        let (container, _) = try makePostgreSQLContainer(PGTrip.self)
        let setup = ModelContext(container)
        for number in 0..<50 {
            let trip = PGTrip(code: "T\(number)", name: "trip \(number)")
            setup.insert(trip)
            trip.stops = (0..<3).map { PGStop(title: "stop \($0)", order: $0) }
        }
        try setup.save()
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<PGTrip>())
        var loads = 0
        for trip in trips { loads += trip.stops.count }
        #expect(loads == 150)
    }
}

@Model
final class PGFolder {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \PGFile.folder) var files: [PGFile] = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class PGFile {
    var size: Int
    var folder: PGFolder?

    init(size: Int) {
        self.size = size
    }
}

extension PostgreSQLRelationshipLoadingTests {
    /// Owners and targets inserted in turn have interleaved keys: one load still serves every owner of the fetch.
    /// (Proven by the server: once the files are deleted behind the context's back, every folder still shows the
    /// files the first load read.)
    @Test func ownersAndTargetsWithInterleavedKeysLoadInOneQuery() throws {
        let (container, database) = try makePostgreSQLContainer(PGFolder.self)
        let setup = ModelContext(container)
        for number in 0..<50 {
            let folder = PGFolder(name: "f\(number)")
            setup.insert(folder)
            folder.files = (0..<3).map { PGFile(size: $0) }
        }
        try setup.save()
        let context = ModelContext(container)
        let folders = try context.fetch(FetchDescriptor<PGFolder>())
        #expect(folders.first?.files.count == 3)
        try TestServer.execute("DELETE FROM \"PGFile\"", on: database)
        var total = 0
        for folder in folders { total += folder.files.count }
        #expect(total == 150)
    }
}

extension PostgreSQLRelationshipLoadingTests {
    /// A read is a round trip to the server: a lazy load serves up to a thousand models of the fetch at once, where
    /// SQLite's serves a hundred.
    @Test func aLazyLoadServesAThousandModelsOfTheFetch() throws {
        let (container, database) = try makePostgreSQLContainer(PGFolder.self)
        let setup = ModelContext(container)
        for number in 0..<250 {
            let folder = PGFolder(name: "f\(number)")
            setup.insert(folder)
            folder.files = [PGFile(size: number)]
        }
        try setup.save()
        let context = ModelContext(container)
        let folders = try context.fetch(FetchDescriptor<PGFolder>(sortBy: [SortDescriptor(\.name)]))
        #expect(folders.first?.files.count == 1)
        // The files go from the server, behind the context's back: only what the first load read is still seen.
        try TestServer.execute("DELETE FROM \"PGFile\"", on: database)
        #expect(folders.allSatisfy { $0.files.count == 1 })
    }
}
