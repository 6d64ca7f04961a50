import Foundation
import Testing

@testable import SwiftData

// Apple's Backyard Birds shape: two to-many relationships of one model name the same to-one as their inverse.

@Model
final class Yard {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Shrub.yard) var leadingShrubs: [Shrub] = []
    @Relationship(deleteRule: .cascade, inverse: \Shrub.yard) var trailingShrubs: [Shrub] = []

    init(name: String) { self.name = name }
}

@Model
final class Shrub {
    var species: String
    var yard: Yard?

    init(species: String) { self.species = species }
}

@Model
final class Garden {
    var name: String
    @Relationship(inverse: \Tree.garden) var front: [Tree] = []
    @Relationship(inverse: \Tree.garden) var back: [Tree] = []

    init(name: String) { self.name = name }
}

@Model
final class Tree {
    var species: String
    var garden: Garden?

    init(species: String) { self.species = species }
}

/// Each relationship keeps its own members, in memory and in the store; the shared to-one holds the owner.
@Suite struct SharedInverseTests {
    private func names(_ shrubs: [Shrub]) -> [String] { shrubs.map(\.species).sorted() }

    @Test func eachRelationshipKeepsItsOwnMembersAcrossAReopen() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Yard.self, at: url))
            let yard = Yard(name: "home")
            context.insert(yard)
            yard.leadingShrubs = ["a", "b", "c"].map { Shrub(species: $0) }
            yard.trailingShrubs = ["x", "y", "z"].map { Shrub(species: $0) }
            #expect(yard.leadingShrubs.allSatisfy { $0.yard === yard })
            #expect(yard.trailingShrubs.allSatisfy { $0.yard === yard })
            try context.save()
        }
        let context = ModelContext(try makeContainer(Yard.self, at: url))
        let yard = try #require(try context.fetch(FetchDescriptor<Yard>()).first)
        #expect(names(yard.leadingShrubs) == ["a", "b", "c"])
        #expect(names(yard.trailingShrubs) == ["x", "y", "z"])
        let shrubs = try context.fetch(FetchDescriptor<Shrub>())
        #expect(shrubs.count == 6)
        #expect(shrubs.allSatisfy { $0.yard === yard })

        // In SQL too: a predicate through each relationship sees its own members.
        let leadingA = #Predicate<Yard> { yard in yard.leadingShrubs.contains { $0.species == "a" } }
        let trailingA = #Predicate<Yard> { yard in yard.trailingShrubs.contains { $0.species == "a" } }
        #expect(try context.fetchCount(FetchDescriptor(predicate: leadingA)) == 1)
        #expect(try context.fetchCount(FetchDescriptor(predicate: trailingA)) == 0)
    }

    @Test func movingAndRemovingKeepTheSidesInAgreement() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Yard.self, at: url))
            let home = Yard(name: "home")
            let park = Yard(name: "park")
            context.insert(home)
            context.insert(park)
            let shrub = Shrub(species: "a")
            let other = Shrub(species: "b")
            home.leadingShrubs.append(shrub)
            home.trailingShrubs.append(other)
            // Appending to another yard's list moves the shrub out of every list of its old yard.
            park.trailingShrubs.append(shrub)
            #expect(home.leadingShrubs.isEmpty)
            #expect(shrub.yard === park)
            // Removing from a list clears the to-one.
            home.trailingShrubs.removeAll()
            #expect(other.yard == nil)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Yard.self, at: url))
        let yards = try context.fetch(FetchDescriptor<Yard>(sortBy: [SortDescriptor(\.name)]))
        let (home, park) = (yards[0], yards[1])
        #expect(home.leadingShrubs.isEmpty && home.trailingShrubs.isEmpty)
        #expect(park.leadingShrubs.isEmpty)
        #expect(names(park.trailingShrubs) == ["a"])

        // Deleting a shrub removes it from its yard's lists; setting the to-one directly takes it out of the old
        // yard's lists and into none of the new one's.
        let shrub = park.trailingShrubs[0]
        shrub.yard = home
        #expect(park.trailingShrubs.isEmpty)
        #expect(home.leadingShrubs.isEmpty && home.trailingShrubs.isEmpty)
        try context.save()
        let reread = ModelContext(try makeContainer(Yard.self, at: url))
        let rereadShrub = try #require(
            try reread.fetch(FetchDescriptor<Shrub>(predicate: #Predicate { $0.species == "a" })).first)
        #expect(rereadShrub.yard?.name == "home")
        #expect(
            try reread.fetch(FetchDescriptor<Yard>()).allSatisfy {
                $0.leadingShrubs.isEmpty && $0.trailingShrubs.isEmpty
            })
    }

    /// With `.nullify`, deleting the owner clears the shared to-one of every member, in memory as in the store.
    @Test func deletingTheOwnerNullifiesTheSharedToOne() throws {
        let container = try makeInMemoryContainer(Garden.self)
        let context = ModelContext(container)
        let garden = Garden(name: "home")
        context.insert(garden)
        let (oak, elm) = (Tree(species: "oak"), Tree(species: "elm"))
        garden.front = [oak]
        garden.back = [elm, oak]
        try context.save()
        context.delete(garden)
        try context.save()
        #expect(oak.garden == nil)
        #expect(elm.garden == nil)
        let stored = try ModelContext(container).fetch(FetchDescriptor<Tree>())
        #expect(stored.count == 2)
        #expect(stored.allSatisfy { $0.garden == nil })
    }

    @Test func deletingTheOwnerCascadesThroughBothRelationships() throws {
        let container = try makeInMemoryContainer(Yard.self)
        let context = ModelContext(container)
        let yard = Yard(name: "home")
        context.insert(yard)
        yard.leadingShrubs = [Shrub(species: "a")]
        yard.trailingShrubs = [Shrub(species: "b")]
        try context.save()
        context.delete(yard)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Shrub>()) == 0)
    }
}

/// A store written before relationships that share an inverse had join tables of their own kept their links in
/// the to-one's foreign key alone: opening it creates the tables and fills them from that key, losing no link.
@Suite struct SharedInverseUpgradeTests {
    @Test func aStoreWithoutTheJoinTablesIsUpgradedWithoutLosingLinks() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Yard.self, at: url))
            let yard = Yard(name: "home")
            context.insert(yard)
            yard.leadingShrubs = [Shrub(species: "a")]
            yard.trailingShrubs = [Shrub(species: "x")]
            context.insert(Shrub(species: "loose"))
            try context.save()
        }
        // Make the file what the earlier layout wrote: no join tables, and metadata that names none.
        let metadata = Dictionary(
            uniqueKeysWithValues: try sqliteRows(
                url, "SELECT key || char(31) || replace(value, char(10), char(30)) FROM _swiftdata_metadata"
            ).map {
                let parts = $0.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
                return (
                    String(parts[0]), parts.count > 1 ? parts[1].replacingOccurrences(of: "\u{1E}", with: "\n") : ""
                )
            })
        var model = try StoredSchema.decoded(try #require(metadata["model"]))
        for index in model.entities.indices {
            model.entities[index].joinTables = []
            model.entities[index].relationships = nil
        }
        let schemaText = try #require(metadata["schema"]).split(separator: "\n")
            .filter { !$0.hasPrefix("Yard_") }.joined(separator: "\n")
        func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        try runSQLite(
            url,
            """
            DROP TABLE Yard_leadingShrubs; DROP TABLE Yard_trailingShrubs;
            UPDATE _swiftdata_metadata SET value = \(literal(try model.encoded())) WHERE key = 'model';
            UPDATE _swiftdata_metadata SET value = \(literal(schemaText)) WHERE key = 'schema';
            """
        )

        let context = ModelContext(try makeContainer(Yard.self, at: url))
        let yard = try #require(try context.fetch(FetchDescriptor<Yard>()).first)
        // The earlier layout showed every shrub of the yard in both relationships; the upgrade keeps that view.
        #expect(yard.leadingShrubs.map(\.species).sorted() == ["a", "x"])
        #expect(yard.trailingShrubs.map(\.species).sorted() == ["a", "x"])
        yard.trailingShrubs.removeAll { $0.species == "a" }
        yard.leadingShrubs.removeAll { $0.species == "x" }
        try context.save()
        let reopened = ModelContext(try makeContainer(Yard.self, at: url))
        let stored = try #require(try reopened.fetch(FetchDescriptor<Yard>()).first)
        #expect(stored.leadingShrubs.map(\.species) == ["a"])
        #expect(stored.trailingShrubs.map(\.species) == ["x"])
    }
}
