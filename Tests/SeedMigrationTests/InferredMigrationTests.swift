import Foundation
import SwiftData
import Testing

// Three versions of a small model, for inferred changes, chains and refusals.

enum ShopV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self, Tag.self] }

    @Model final class Item {
        var name: String
        var price: Double
        var note: String?
        var legacy: Int
        var code: String
        @Relationship(inverse: \Tag.items) var tags: [Tag] = []
        init(name: String, price: Double, note: String?, legacy: Int, code: String) {
            self.name = name
            self.price = price
            self.note = note
            self.legacy = legacy
            self.code = code
        }
    }

    @Model final class Tag {
        var label: String
        var items: [Item] = []
        init(label: String) { self.label = label }
    }
}

enum ShopV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self, Tag.self, Shelf.self] }

    @Model final class Item {
        #Index<Item>([\.title])
        @Attribute(originalName: "name") var title: String
        var price: Double?
        var note: String = "none"
        var stock: Int = 5
        var discount: Double?
        @Attribute(.unique) var code: String
        @Relationship(inverse: \Tag.items) var tags: [Tag] = []
        init(title: String, code: String) {
            self.title = title
            self.code = code
        }
    }

    @Model final class Tag {
        var label: String
        var items: [Item] = []
        init(label: String) { self.label = label }
    }

    @Model final class Shelf {
        var position: Int
        init(position: Int) { self.position = position }
    }
}

enum ShopV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self, Tag.self, Shelf.self] }

    @Model final class Item {
        var title: String
        var price: Double?
        var note: String = "none"
        var stock: Int = 5
        var discount: Double?
        var sku: String
        @Attribute(.unique) var code: String
        @Relationship(inverse: \Tag.items) var tags: [Tag] = []
        init(title: String, code: String, sku: String) {
            self.title = title
            self.code = code
            self.sku = sku
        }
    }

    @Model final class Tag {
        var label: String
        var items: [Item] = []
        init(label: String) { self.label = label }
    }

    @Model final class Shelf {
        var position: Int
        init(position: Int) { self.position = position }
    }
}

/// V3 with a failing custom stage, for the atomicity test.
enum ShopV3Typed: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self, Tag.self, Shelf.self] }

    @Model final class Item {
        @Attribute(originalName: "name") var title: String
        var price: String
        var code: String
        @Relationship(inverse: \Tag.items) var tags: [Tag] = []
        init(title: String, price: String, code: String) {
            self.title = title
            self.price = price
            self.code = code
        }
    }

    @Model final class Tag {
        var label: String
        var items: [Item] = []
        init(label: String) { self.label = label }
    }

    @Model final class Shelf {
        var position: Int
        init(position: Int) { self.position = position }
    }
}

enum ShopPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShopV1.self, ShopV2.self, ShopV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: ShopV1.self, toVersion: ShopV2.self),
            .custom(fromVersion: ShopV2.self, toVersion: ShopV3.self, willMigrate: nil) { context in
                for item in try context.fetch(FetchDescriptor<ShopV3.Item>()) { item.sku = "SKU-" + item.code }
            },
        ]
    }
}

enum ShopPlanThatForgets: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShopV1.self, ShopV2.self, ShopV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: ShopV1.self, toVersion: ShopV2.self),
            .custom(fromVersion: ShopV2.self, toVersion: ShopV3.self, willMigrate: nil) { context in
                let items = try context.fetch(FetchDescriptor<ShopV3.Item>(sortBy: [SortDescriptor(\.code)]))
                items.first?.sku = "only one"
            },
        ]
    }
}

/// Version 1 to 2 in a lightweight stage: what the inferred migration does, with a plan, which the PostgreSQL store
/// needs to drop the values of removed properties.
enum ShopPlanToV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShopV1.self, ShopV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ShopV1.self, toVersion: ShopV2.self)] }
}

/// A container for version 2 of a store written with version 1: inferred on SQLite; on PostgreSQL, which refuses
/// to drop the removed `legacy` values without a plan, through `ShopPlanToV2`.
func openShopV2(at location: StoreLocation) throws -> ModelContainer {
    switch location.store {
    case .sqlite: try open(ShopV2.self, at: location)
    case .postgreSQL: try open(ShopV2.self, at: location, plan: ShopPlanToV2.self)
    }
}

/// A plan that no longer lists version 1.
enum ShopPlanFromV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShopV2.self, ShopV3.self] }
    static var stages: [MigrationStage] { [] }
}

/// Creates a V1 store with two items and a tag.
func makeShopV1(at location: StoreLocation) throws {
    let context = ModelContext(try open(ShopV1.self, at: location))
    let tag = ShopV1.Tag(label: "sale")
    let first = ShopV1.Item(name: "Lamp", price: 20, note: nil, legacy: 1, code: "A")
    let second = ShopV1.Item(name: "Desk", price: 120, note: "heavy", legacy: 2, code: "B")
    context.insert(first)
    context.insert(second)
    first.tags = [tag]
    try context.save()
}

@Suite struct InferredMigrationTests {
    @Test(arguments: MigratedStore.available) func withoutAPlanEveryAllowedChangeIsInferred(store: MigratedStore) throws
    {
        let directory = try store.makeLocation()
        try makeShopV1(at: directory)
        if store == .postgreSQL {
            // Without a plan, PostgreSQL keeps the removed `legacy` values rather than drop them.
            let error = #expect(throws: SwiftDataError.self) { try open(ShopV2.self, at: directory) }
            #expect(error?.description.contains("Item.legacy is no longer in the code") == true, "\(error as Any)")
        }
        let container = try openShopV2(at: directory)
        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<ShopV2.Item>(sortBy: [SortDescriptor(\.code)]))
        #expect(items.map(\.title) == ["Lamp", "Desk"])
        #expect(items.map(\.price) == [20, 120])
        #expect(items.map(\.note) == ["none", "heavy"])
        #expect(items.map(\.stock) == [5, 5])
        #expect(items.map(\.discount) == [nil, nil])
        #expect(items[0].tags.map(\.label) == ["sale"])
        context.insert(ShopV2.Shelf(position: 1))
        context.insert(ShopV2.Item(title: "Chair", code: "A"))
        try context.save()
        let afterUpsert = try ModelContext(container).fetch(
            FetchDescriptor<ShopV2.Item>(sortBy: [SortDescriptor(\.code)]))
        #expect(afterUpsert.map(\.title) == ["Chair", "Desk"])
    }

    @Test(arguments: MigratedStore.available) func rebuildingATableKeepsTheKeysOfDeletedRowsRetired(
        store: MigratedStore
    ) throws {
        let directory = try store.makeLocation()
        try makeShopV1(at: directory)
        let retired: PersistentIdentifier
        do {
            let context = ModelContext(try open(ShopV1.self, at: directory))
            // Desk was inserted last: its key is the table's highest.
            let desk = try #require(
                try context.fetch(FetchDescriptor<ShopV1.Item>(predicate: #Predicate { $0.code == "B" })).first)
            retired = desk.persistentModelID
            context.delete(desk)
            try context.save()
        }
        // The migration copies the rows into a new table; the highest key given out goes with them.
        let context = ModelContext(try openShopV2(at: directory))
        let chair = ShopV2.Item(title: "Chair", code: "C")
        context.insert(chair)
        try context.save()
        #expect(chair.persistentModelID.storeIdentifier == retired.storeIdentifier)
        #expect(chair.persistentModelID.entityName == retired.entityName)
        #expect(chair.persistentModelID != retired)
    }

    @Test(arguments: MigratedStore.available) func aPlanRunsAChainOfStagesInOrder(store: MigratedStore) throws {
        let directory = try store.makeLocation()
        try makeShopV1(at: directory)
        let container = try open(ShopV3.self, at: directory, plan: ShopPlan.self)
        let context = ModelContext(container)
        let items = try context.fetch(FetchDescriptor<ShopV3.Item>(sortBy: [SortDescriptor(\.code)]))
        #expect(items.map(\.sku) == ["SKU-A", "SKU-B"])
        #expect(items.map(\.title) == ["Lamp", "Desk"])
        #expect(items[0].tags.first?.label == "sale")
        // Opening again needs no migration.
        _ = try open(ShopV3.self, at: directory, plan: ShopPlan.self)
    }

    @Test(arguments: MigratedStore.available) func aStageThatLeavesValuesMissingChangesNothing(store: MigratedStore)
        throws
    {
        let directory = try store.makeLocation()
        try makeShopV1(at: directory)
        let error = #expect(throws: SwiftDataError.self) {
            try open(ShopV3.self, at: directory, plan: ShopPlanThatForgets.self)
        }
        #expect(error?.description.contains("Item.sku without a value in 1 row(s)") == true)
        let context = ModelContext(try open(ShopV1.self, at: directory))
        #expect(try context.fetch(FetchDescriptor<ShopV1.Item>()).count == 2)
    }

    @Test(arguments: MigratedStore.available) func typeChangesAreRefusedWithTheReason(store: MigratedStore) throws {
        let directory = try store.makeLocation()
        try makeShopV1(at: directory)
        let error = #expect(throws: SwiftDataError.self) { try open(ShopV3Typed.self, at: directory) }
        // SQLite names the column types; PostgreSQL finds the attribute's type changed first.
        let types = store == .sqlite ? "REAL to TEXT COLLATE SWIFTDATA" : "Double to String"
        #expect(error?.description.contains("Item.price changed from \(types)") == true, "\(error as Any)")
        #expect(
            try ModelContext(try open(ShopV1.self, at: directory)).fetchCount(FetchDescriptor<ShopV1.Item>()) == 2
        )
    }

    @Test(arguments: MigratedStore.available) func newerAndUnknownStoresGetApplesErrors(store: MigratedStore) throws {
        let directory = try store.makeLocation()
        try makeShopV1(at: directory)
        _ = try open(ShopV3.self, at: directory, plan: ShopPlan.self)
        #expect(throws: SwiftDataError.backwardMigration) {
            try open(ShopV1.self, at: directory, plan: ShopPlan.self)
        }
        let older = try store.makeLocation()
        try makeShopV1(at: older)
        #expect(throws: SwiftDataError.unknownSchema) {
            try open(ShopV3.self, at: older, plan: ShopPlanFromV2.self)
        }
    }
}
