import Foundation
import SwiftData
import Testing

// Schema changes where a careless migration loses values: chained renames, a composite attribute made optional,
// models moving into an inheritance hierarchy, and a custom stage that enumerates.

enum RenameV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Label.self] }

    @Model final class Label {
        var first: String
        var second: String
        init(first: String, second: String) {
            self.first = first
            self.second = second
        }
    }
}

enum RenameV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Label.self] }

    /// `second` takes `first`'s values while `third` takes `second`'s.
    @Model final class Label {
        @Attribute(originalName: "first") var second: String
        @Attribute(originalName: "second") var third: String
        init(second: String, third: String) {
            self.second = second
            self.third = third
        }
    }
}

struct Spot: Codable, Hashable {
    var city: String
    var latitude: Double
}

enum SpotV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Venue.self] }

    @Model final class Venue {
        var name: String
        var spot: Spot
        init(name: String, spot: Spot) {
            self.name = name
            self.spot = spot
        }
    }
}

enum SpotV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Venue.self] }

    @Model final class Venue {
        var name: String
        var spot: Spot?
        init(name: String, spot: Spot?) {
            self.name = name
            self.spot = spot
        }
    }
}

enum VoyageV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Voyage.self, Cruise.self] }

    @Model class Voyage {
        var port: String
        init(port: String) { self.port = port }
    }

    @Model class Cruise {
        var port: String
        var ship: String
        init(port: String, ship: String) {
            self.port = port
            self.ship = ship
        }
    }
}

enum VoyageV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Voyage.self, Cruise.self] }

    @Model class Voyage {
        var port: String
        init(port: String) { self.port = port }
    }

    @available(iOS 26, *)
    @Model class Cruise: Voyage {
        var ship: String
        init(port: String, ship: String) {
            self.ship = ship
            super.init(port: port)
        }
    }
}

enum VoyagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [VoyageV1.self, VoyageV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: VoyageV1.self, toVersion: VoyageV2.self)] }
}

/// The stage fills the new required `sku` while enumerating, then fails: nothing of the migration may stay.
enum EnumeratingPlanThatFails: SchemaMigrationPlan {
    struct StageFailure: Error {}

    static var schemas: [any VersionedSchema.Type] { [ShopV2.self, ShopV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: ShopV2.self, toVersion: ShopV3.self, willMigrate: nil) { context in
                try context.enumerate(FetchDescriptor<ShopV3.Item>(sortBy: [SortDescriptor(\.code)]), batchSize: 1) {
                    $0.sku = "SKU-" + $0.code
                }
                try context.save()
                throw StageFailure()
            }
        ]
    }
}

/// The same stage, succeeding.
enum EnumeratingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShopV2.self, ShopV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: ShopV2.self, toVersion: ShopV3.self, willMigrate: nil) { context in
                try context.enumerate(FetchDescriptor<ShopV3.Item>(sortBy: [SortDescriptor(\.code)]), batchSize: 1) {
                    $0.sku = "SKU-" + $0.code
                }
                try context.save()
            }
        ]
    }
}

@Suite struct MigrationEdgeTests {
    @Test(arguments: MigratedStore.available) func chainedRenamesMoveEachValueToItsNewProperty(store: MigratedStore)
        throws
    {
        let location = try store.makeLocation()
        do {
            let context = ModelContext(try open(RenameV1.self, at: location))
            context.insert(RenameV1.Label(first: "one", second: "two"))
            try context.save()
        }
        let labels = try ModelContext(try open(RenameV2.self, at: location)).fetch(FetchDescriptor<RenameV2.Label>())
        #expect(labels.map(\.second) == ["one"])
        #expect(labels.map(\.third) == ["two"])
    }

    @Test(arguments: MigratedStore.available) func aRequiredCompositeMadeOptionalKeepsItsValues(store: MigratedStore)
        throws
    {
        let location = try store.makeLocation()
        do {
            let context = ModelContext(try open(SpotV1.self, at: location))
            context.insert(SpotV1.Venue(name: "hall", spot: Spot(city: "Oslo", latitude: 59.9)))
            try context.save()
        }
        let context = ModelContext(try open(SpotV2.self, at: location))
        let venues = try context.fetch(FetchDescriptor<SpotV2.Venue>())
        #expect(venues.map(\.spot) == [Spot(city: "Oslo", latitude: 59.9)])
        context.insert(SpotV2.Venue(name: "field", spot: nil))
        try context.save()
        let reread = try ModelContext(try open(SpotV2.self, at: location)).fetch(
            FetchDescriptor<SpotV2.Venue>(sortBy: [SortDescriptor(\.name)]))
        #expect(reread.map(\.spot) == [nil, Spot(city: "Oslo", latitude: 59.9)])
    }

    @Test(arguments: MigratedStore.available) func aModelMovingIntoAHierarchyIsRefusedAndLosesNothing(
        store: MigratedStore
    ) throws {
        let location = try store.makeLocation()
        do {
            let context = ModelContext(try open(VoyageV1.self, at: location))
            context.insert(VoyageV1.Voyage(port: "Bergen"))
            context.insert(VoyageV1.Cruise(port: "Kiel", ship: "Color Magic"))
            try context.save()
        }
        let error = #expect(throws: SwiftDataError.self) {
            try open(VoyageV2.self, at: location, plan: VoyagePlan.self)
        }
        #expect(
            error?.description.contains("Cruise moves into Voyage's inheritance hierarchy") == true, "\(error as Any)")
        let context = ModelContext(try open(VoyageV1.self, at: location))
        #expect(try context.fetch(FetchDescriptor<VoyageV1.Cruise>()).map(\.ship) == ["Color Magic"])
        #expect(try context.fetch(FetchDescriptor<VoyageV1.Voyage>()).map(\.port) == ["Bergen"])
    }

    @Test(arguments: MigratedStore.available) func aStageThatEnumeratesFillsEveryRow(store: MigratedStore) throws {
        let location = try store.makeLocation()
        try makeShopV1(at: location)
        _ = try openShopV2(at: location)
        let context = ModelContext(try open(ShopV3.self, at: location, plan: EnumeratingPlan.self))
        let items = try context.fetch(FetchDescriptor<ShopV3.Item>(sortBy: [SortDescriptor(\.code)]))
        #expect(items.map(\.sku) == ["SKU-A", "SKU-B"])
    }

    @Test(arguments: MigratedStore.available) func aStageThatEnumeratesAndThenFailsChangesNothing(store: MigratedStore)
        throws
    {
        let location = try store.makeLocation()
        try makeShopV1(at: location)
        _ = try openShopV2(at: location)
        #expect(throws: EnumeratingPlanThatFails.StageFailure.self) {
            try open(ShopV3.self, at: location, plan: EnumeratingPlanThatFails.self)
        }
        let context = ModelContext(try open(ShopV2.self, at: location))
        let items = try context.fetch(FetchDescriptor<ShopV2.Item>(sortBy: [SortDescriptor(\.code)]))
        #expect(items.map(\.title) == ["Lamp", "Desk"])
    }
}
