import Foundation
import SwiftData
import Testing

enum FarmV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Farmer.self, Animal.self] }

    @Model final class Farmer {
        var name: String
        @Relationship(inverse: \Animal.farmer) var animals: [Animal] = []
        init(name: String) { self.name = name }
    }

    @Model final class Animal {
        var kind: String
        var farmer: Farmer?
        init(kind: String) { self.kind = kind }
    }
}

enum FarmV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Farmer.self, Animal.self] }

    @Model final class Farmer {
        var name: String
        @Relationship(inverse: \Animal.farmers) var animals: [Animal] = []
        init(name: String) { self.name = name }
    }

    @Model final class Animal {
        var kind: String
        @Relationship(originalName: "farmer") var farmers: [Farmer] = []
        init(kind: String) { self.kind = kind }
    }
}

@Suite struct RelationshipMigrationTests {
    @Test(arguments: MigratedStore.available) func toOneBecomingToManyIsRefusedRatherThanLosingLinks(
        store: MigratedStore
    ) throws {
        let directory = try store.makeLocation()
        do {
            let context = ModelContext(try open(FarmV1.self, at: directory))
            let farmer = FarmV1.Farmer(name: "Aino")
            context.insert(farmer)
            farmer.animals = [FarmV1.Animal(kind: "cow")]
            try context.save()
        }
        let error = #expect(throws: SwiftDataError.self) { try open(FarmV2.self, at: directory) }
        #expect(error?.description.contains("changes how its links are stored") == true)
        let context = ModelContext(try open(FarmV1.self, at: directory))
        #expect(try context.fetch(FetchDescriptor<FarmV1.Animal>()).first?.farmer?.name == "Aino")
    }
}
