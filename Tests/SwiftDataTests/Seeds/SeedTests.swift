import Foundation
import SwiftData
import Testing

@Suite struct SeedTests {
    @Test func seed000ProjectsAndTasksPersistAndCascade() throws {
        let directory = try TemporaryDirectory()
        let konfiguraatio = ModelConfiguration(
            "ProjektitDB",
            schema: Schema([Projekti.self, Tehtava.self]),
            url: directory.store("ProjektitDB.store")
        )
        do {
            let container = try ModelContainer(for: Projekti.self, Tehtava.self, configurations: konfiguraatio)
            let modelContext = ModelContext(container)
            let uusiProjekti = Projekti(nimi: "Uusi projekti", kuvaus: "Projektin kuvaus tähän")
            modelContext.insert(uusiProjekti)
            uusiProjekti.tehtavat.append(Tehtava(otsikko: "Eka", prioriteetti: 2))
            modelContext.insert(Projekti(nimi: "Valmis", kuvaus: "", onValmis: true))
            try modelContext.save()
        }
        let container = try ModelContainer(for: Projekti.self, Tehtava.self, configurations: konfiguraatio)
        let modelContext = ModelContext(container)
        let descriptor = FetchDescriptor(
            predicate: #Predicate<Projekti> { $0.onValmis },
            sortBy: [SortDescriptor(\Projekti.luontipvm, order: .reverse)]
        )
        #expect(try modelContext.fetch(descriptor).map(\.nimi) == ["Valmis"])
        #expect(try modelContext.fetchCount(FetchDescriptor(predicate: #Predicate<Projekti> { !$0.onValmis })) == 1)

        var sivu = FetchDescriptor(sortBy: [SortDescriptor(\Projekti.luontipvm, order: .reverse)])
        sivu.fetchOffset = 0 * 20
        sivu.fetchLimit = 20
        #expect(try modelContext.fetch(sivu).count == 2)

        let projekti = try #require(
            try modelContext.fetch(FetchDescriptor(predicate: #Predicate<Projekti> { !$0.onValmis })).first)
        #expect(projekti.tehtavat.map(\.otsikko) == ["Eka"])
        modelContext.delete(projekti)
        try modelContext.save()
        #expect(try modelContext.fetchCount(FetchDescriptor<Tehtava>()) == 0)
    }

    @Test func seed000ManyToManyTagsAndUniqueUsers() throws {
        let container = try makeInMemoryContainer(Artikkeli.self, Kayttaja.self)
        let context = ModelContext(container)
        let swift = Tagi(nimi: "Swift")
        let swiftui = Tagi(nimi: "SwiftUI")
        let artikkeli = Artikkeli(otsikko: "SwiftUI-vinkkejä", sisalto: "...")
        artikkeli.tagit = [swift, swiftui]
        #expect(swift.artikkelit.first === artikkeli)
        context.insert(artikkeli)
        #expect(swiftui.modelContext === context)

        let kayttaja = Kayttaja(sahkoposti: "a@b.fi", nimi: "Aino")
        kayttaja.valiaikainenTieto = "ei tallenneta"
        context.insert(kayttaja)
        try context.save()
        context.insert(Kayttaja(sahkoposti: "a@b.fi", nimi: "Aino Uusi"))
        try context.save()

        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<Tagi>()) == 2)
        let users = try fresh.fetch(FetchDescriptor<Kayttaja>())
        #expect(users.map(\.nimi) == ["Aino Uusi"])
        #expect(users.first?.valiaikainenTieto == "")
        let stored = try #require(try fresh.fetch(FetchDescriptor<Artikkeli>()).first)
        #expect(stored.tagit.map(\.nimi).sorted() == ["Swift", "SwiftUI"])
    }

    @Test func seed004TasksWithPriorityCategoryAndBatchDelete() throws {
        let config = ModelConfiguration(
            "MyAppDB",
            schema: Schema([Task.self, Category.self]),
            isStoredInMemoryOnly: true,
            allowsSave: true,
            groupContainer: .identifier("group.com.myapp")
        )
        let container = try ModelContainer(for: Task.self, Category.self, configurations: config)
        let context = ModelContext(container)
        let work = Category(name: "Work", color: "blue")
        context.insert(work)
        for (title, priority) in [("a", Task.Priority.low), ("b", .high), ("c", .critical)] {
            let task = Task(title: title, priority: priority)
            context.insert(task)
            addTaskToCategory(task: task, category: work)
        }
        #expect(work.tasks.count == 3)
        try context.save()

        let urgent = try context.fetch(
            FetchDescriptor<Task>(
                predicate: #Predicate { $0.isCompleted == false && $0.priority.rawValue >= 2 },
                sortBy: [SortDescriptor(\Task.priority.rawValue, order: .reverse), SortDescriptor(\Task.dueDate)]
            )
        )
        #expect(urgent.map(\.title) == ["c", "b"])

        let first = try #require(urgent.first)
        first.isCompleted.toggle()
        try context.delete(model: Task.self, where: #Predicate { $0.isCompleted == true })
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Task>(sortBy: [SortDescriptor(\.title)])).map(\.title) == ["a", "b"])

        context.delete(work)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Task>()) == 0)
    }
}

@Suite struct ModelMetadataTests {
    @Test func schemaMetadataDescribesPersistedPropertiesOnly() throws {
        #expect(Kayttaja.schemaMetadata.map(\.name) == ["sahkoposti", "nimi", "profiilikuva", "esittely"])
        let entity = try #require(Schema([Kayttaja.self]).entity(for: Kayttaja.self))
        #expect(entity.attributesByName["sahkoposti"]?.isUnique == true)
        #expect(entity.attributesByName["profiilikuva"]?.options == [.externalStorage])
        #expect(entity.attributesByName["esittely"]?.isOptional == true)
        #expect(entity.uniquenessConstraints == [["sahkoposti"]])
    }

    @Test func declaredDefaultsBecomeSchemaDefaults() throws {
        let entity = try #require(Schema([BucketListItem.self]).entity(for: BucketListItem.self))
        #expect(entity.attributesByName["isDone"]?.defaultValue as? Bool == false)
        #expect(BucketListItem(title: "x").isDone == false)
    }

    @Test func codableStructsAreCompositeAttributes() throws {
        let entity = try #require(Schema([Visit.self]).entity(for: Visit.self))
        let place = try #require(entity.attributesByName["place"] as? Schema.CompositeAttribute)
        #expect(
            place.properties.map(\.name) == [
                "name", "point.latitude", "point.longitude", "note", "kind", "extra", "tags",
            ])
        #expect(!(entity.attributesByName["shape"] is Schema.CompositeAttribute))
    }

    @Test func modelsAreObservable() throws {
        let trip = Trip(name: "A", destination: "X")
        nonisolated(unsafe) var changed = false
        // Safe: the onChange closure runs synchronously on this thread during the mutation below.
        withObservationTracking {
            _ = trip.name
        } onChange: {
            changed = true
        }
        trip.name = "B"
        #expect(changed)
    }
}
