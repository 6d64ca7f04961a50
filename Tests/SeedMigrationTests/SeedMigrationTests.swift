import Foundation
import SwiftData
import Testing

@Suite struct SeedMigrationTests {
    @Test func seed002LightweightStageAddsTheOptionalProperty() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try open(SchemaV1.self, at: directory.store))
            context.insert(SchemaV1.Note(title: "first"))
            context.insert(SchemaV1.Note(title: "second"))
            try context.save()
        }
        let container = try open(SchemaV2.self, at: directory.store, plan: NoteMigrationPlan.self)
        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<SchemaV2.Note>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["first", "second"])
        #expect(notes.allSatisfy { $0.pinnedAt == nil })
        notes[0].pinnedAt = .now
        try context.save()
        let reopened = ModelContext(try open(SchemaV2.self, at: directory.store, plan: NoteMigrationPlan.self))
        #expect(
            try reopened.fetchCount(FetchDescriptor<SchemaV2.Note>(predicate: #Predicate { $0.pinnedAt != nil })) == 1)
    }

    @Test func seed000CustomStageFillsTheNewRequiredProperty() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try open(ProjektiSkemaV1.self, at: directory.store))
            context.insert(ProjektiSkemaV1.Projekti(nimi: "Uusi Projekti", kuvaus: "a"))
            context.insert(ProjektiSkemaV1.Projekti(nimi: "Toinen", kuvaus: "b"))
            try context.save()
        }
        let container = try ModelContainer(
            for: ProjektiSkemaV2.Projekti.self,
            migrationPlan: ProjektiMigraatio.self,
            configurations: ModelConfiguration(url: directory.store)
        )
        let projektit = try ModelContext(container).fetch(
            FetchDescriptor<ProjektiSkemaV2.Projekti>(sortBy: [SortDescriptor(\.nimi)])
        )
        #expect(projektit.map(\.slug) == ["toinen", "uusi-projekti"])
        #expect(projektit.map(\.kuvaus) == ["b", "a"])
    }

    @Test func seed004StageWorksOnAnEmptyStoreAndRefusesToInventPriorities() throws {
        let empty = try TemporaryDirectory()
        _ = try open(TaskSchemaV1.self, at: empty.store)
        let migrated = try ModelContainer(
            for: TaskSchemaV2.TaskV2.self,
            migrationPlan: TaskMigrationPlan.self,
            configurations: ModelConfiguration(url: empty.store)
        )
        let context = ModelContext(migrated)
        context.insert(TaskSchemaV2.TaskV2(title: "new", priority: 2))
        try context.save()

        let filled = try TemporaryDirectory()
        do {
            let context = ModelContext(try open(TaskSchemaV1.self, at: filled.store))
            context.insert(TaskSchemaV1.TaskV1(title: "kept"))
            try context.save()
        }
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(
                for: TaskSchemaV2.TaskV2.self,
                migrationPlan: TaskMigrationPlan.self,
                configurations: ModelConfiguration(url: filled.store)
            )
        }
        #expect(error?.description.contains("TaskV2.priority is new and required") == true)
        let old = ModelContext(try open(TaskSchemaV1.self, at: filled.store))
        #expect(try old.fetch(FetchDescriptor<TaskSchemaV1.TaskV1>()).map(\.title) == ["kept"])
    }
}
