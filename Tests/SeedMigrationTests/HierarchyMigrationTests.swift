import Foundation
import SwiftData
import Testing

enum TravelV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model class Trip {
        var destination: String
        init(destination: String) { self.destination = destination }
    }
}

enum TravelV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, BusinessTrip.self] }

    @Model class Trip {
        var destination: String
        var nights: Int = 1
        init(destination: String) { self.destination = destination }
    }

    @available(iOS 26, *)
    @Model class BusinessTrip: Trip {
        var company: String
        init(destination: String, company: String) {
            self.company = company
            super.init(destination: destination)
        }
    }
}

enum TravelPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TravelV1.self, TravelV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: TravelV1.self, toVersion: TravelV2.self)] }
}

@Suite struct HierarchyMigrationTests {
    @Test(arguments: MigratedStore.available) func aLightweightStageAddsASubclassAndKeepsTheRows(store: MigratedStore)
        throws
    {
        let directory = try store.makeLocation()
        do {
            let context = ModelContext(try open(TravelV1.self, at: directory))
            context.insert(TravelV1.Trip(destination: "Oslo"))
            try context.save()
        }
        let container = try open(TravelV2.self, at: directory, plan: TravelPlan.self)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<TravelV2.Trip>())
        #expect(trips.map(\.destination) == ["Oslo"])
        #expect(trips.map(\.nights) == [1])
        #expect(!(trips[0] is TravelV2.BusinessTrip))
        context.insert(TravelV2.BusinessTrip(destination: "Riga", company: "Acme"))
        try context.save()
        let reopened = ModelContext(try open(TravelV2.self, at: directory, plan: TravelPlan.self))
        #expect(try reopened.fetch(FetchDescriptor<TravelV2.BusinessTrip>()).map(\.company) == ["Acme"])
        #expect(try reopened.fetchCount(FetchDescriptor<TravelV2.Trip>()) == 2)
    }
}

enum TravelV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, BusinessTrip.self] }

    @Model class Trip {
        var destination: String
        var code: String
        init(destination: String, code: String) {
            self.destination = destination
            self.code = code
        }
    }

    @available(iOS 26, *)
    @Model class BusinessTrip: Trip {
        var company: String?
        init(destination: String, code: String, company: String) {
            self.company = company
            super.init(destination: destination, code: code)
        }
    }
}

/// A custom stage into a hierarchy whose `didMigrate` forgets to fill a new required attribute.
enum TravelPlanThatForgets: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TravelV1.self, TravelV3.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: TravelV1.self, toVersion: TravelV3.self, willMigrate: nil, didMigrate: { _ in })]
    }
}

@Suite struct HierarchyCustomStageTests {
    /// The check after `didMigrate` walks the hierarchy's table, type column included, and names what is missing.
    @Test(arguments: MigratedStore.available) func aCustomStageIntoAHierarchyThatLeavesAValueMissingNamesIt(
        store: MigratedStore
    ) throws {
        let directory = try store.makeLocation()
        do {
            let context = ModelContext(try open(TravelV1.self, at: directory))
            context.insert(TravelV1.Trip(destination: "Oslo"))
            try context.save()
        }
        let error = #expect(throws: SwiftDataError.self) {
            try open(TravelV3.self, at: directory, plan: TravelPlanThatForgets.self)
        }
        #expect(error == .loadIssueModelContainer)
        #expect(error?.description.contains("Trip.code without a value in 1 row(s)") == true)
        let context = ModelContext(try open(TravelV1.self, at: directory))
        #expect(try context.fetch(FetchDescriptor<TravelV1.Trip>()).map(\.destination) == ["Oslo"])
    }
}
