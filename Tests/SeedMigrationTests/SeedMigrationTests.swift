import Foundation
import SwiftData
import Testing

@Suite struct SeedMigrationTests {
    @Test(arguments: MigratedStore.available) func seed002LightweightStageAddsTheOptionalProperty(store: MigratedStore)
        throws
    {
        let directory = try store.makeLocation()
        do {
            let context = ModelContext(try open(SchemaV1.self, at: directory))
            context.insert(SchemaV1.Note(title: "first"))
            context.insert(SchemaV1.Note(title: "second"))
            try context.save()
        }
        let container = try open(SchemaV2.self, at: directory, plan: NoteMigrationPlan.self)
        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<SchemaV2.Note>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["first", "second"])
        #expect(notes.allSatisfy { $0.pinnedAt == nil })
        notes[0].pinnedAt = .now
        try context.save()
        let reopened = ModelContext(try open(SchemaV2.self, at: directory, plan: NoteMigrationPlan.self))
        #expect(
            try reopened.fetchCount(FetchDescriptor<SchemaV2.Note>(predicate: #Predicate { $0.pinnedAt != nil })) == 1)
    }

    @Test(arguments: MigratedStore.available) func seed000CustomStageFillsTheNewRequiredProperty(store: MigratedStore)
        throws
    {
        let directory = try store.makeLocation()
        do {
            let context = ModelContext(try open(ProjektiSkemaV1.self, at: directory))
            context.insert(ProjektiSkemaV1.Projekti(nimi: "Uusi Projekti", kuvaus: "a"))
            context.insert(ProjektiSkemaV1.Projekti(nimi: "Toinen", kuvaus: "b"))
            try context.save()
        }
        let container = try open(Schema([ProjektiSkemaV2.Projekti.self]), at: directory, plan: ProjektiMigraatio.self)
        let projektit = try ModelContext(container).fetch(
            FetchDescriptor<ProjektiSkemaV2.Projekti>(sortBy: [SortDescriptor(\.nimi)])
        )
        #expect(projektit.map(\.slug) == ["toinen", "uusi-projekti"])
        #expect(projektit.map(\.kuvaus) == ["b", "a"])
    }

    @Test(arguments: MigratedStore.available) func seed004StageWorksOnAnEmptyStoreAndRefusesToInventPriorities(
        store: MigratedStore
    ) throws {
        let empty = try store.makeLocation()
        _ = try open(TaskSchemaV1.self, at: empty)
        let migrated = try open(Schema([TaskSchemaV2.TaskV2.self]), at: empty, plan: TaskMigrationPlan.self)
        let context = ModelContext(migrated)
        context.insert(TaskSchemaV2.TaskV2(title: "new", priority: 2))
        try context.save()

        let filled = try store.makeLocation()
        do {
            let context = ModelContext(try open(TaskSchemaV1.self, at: filled))
            context.insert(TaskSchemaV1.TaskV1(title: "kept"))
            try context.save()
        }
        let error = #expect(throws: SwiftDataError.self) {
            try open(Schema([TaskSchemaV2.TaskV2.self]), at: filled, plan: TaskMigrationPlan.self)
        }
        #expect(error?.description.contains("TaskV2.priority is new and required") == true, "\(error as Any)")
        let old = ModelContext(try open(TaskSchemaV1.self, at: filled))
        #expect(try old.fetch(FetchDescriptor<TaskSchemaV1.TaskV1>()).map(\.title) == ["kept"])
    }
}
