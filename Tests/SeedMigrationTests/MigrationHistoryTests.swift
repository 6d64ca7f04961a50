import Foundation
import SwiftData
import Testing

/// A custom stage that fills the new required attribute in `didMigrate`, through a context.
enum TravelPlanThatFills: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TravelV1.self, TravelV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: TravelV1.self, toVersion: TravelV3.self, willMigrate: nil,
                didMigrate: { context in
                    for trip in try context.fetch(FetchDescriptor<TravelV3.Trip>()) {
                        trip.code = String(trip.destination.prefix(3)).uppercased()
                    }
                    try context.save()
                })
        ]
    }
}

/// What a migration changes is no user's change: history keeps the saves before and after it, not its own.
@Suite struct MigrationHistoryTests {
    @Test(arguments: MigratedStore.available) func aMigrationsChangesAreNotRecordedAsTransactions(store: MigratedStore)
        throws
    {
        let directory = try store.makeLocation()
        do {
            let context = ModelContext(try open(TravelV1.self, at: directory))
            context.author = "before"
            context.insert(TravelV1.Trip(destination: "Oslo"))
            try context.save()
        }
        let context = ModelContext(try open(TravelV3.self, at: directory, plan: TravelPlanThatFills.self))
        #expect(try context.fetch(FetchDescriptor<TravelV3.Trip>()).map(\.code) == ["OSL"])
        context.author = "after"
        context.insert(TravelV3.Trip(destination: "Riga", code: "RIX"))
        try context.save()

        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: nil))
        #expect(history.map(\.author) == ["before", "after"])
        #expect(
            history.allSatisfy { transaction in
                transaction.changes.allSatisfy { if case .insert = $0 { true } else { false } }
            })
    }
}
