import Foundation
import SwiftData
import Testing

@Suite struct ModelActorTests {
    @Test func seed000ImportOnABackgroundActorIsVisibleToTheMainContext() async throws {
        let container = try ModelContainer(
            for: Projekti.self,
            Tehtava.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true)
        )
        let json = """
            [{"nimi": "Verkkosivu", "kuvaus": "Uusi", "luontipvm": "2026-01-02T03:04:05Z",
              "tehtavat": [{"otsikko": "Suunnittele", "onTehty": false, "prioriteetti": 2}]},
             {"nimi": "Muutto", "kuvaus": "Toimisto", "luontipvm": "2026-02-03T04:05:06Z", "tehtavat": []}]
            """
        let palvelu = TietojenTuontipalvelu(modelContainer: container)
        let maara = try await palvelu.tuoProjektitJSONsta(Data(json.utf8))
        #expect(maara == 2)
        let (nimet, tehtavat) = try await MainActor.run {
            let projektit = try container.mainContext.fetch(FetchDescriptor<Projekti>(sortBy: [SortDescriptor(\.nimi)]))
            return (projektit.map(\.nimi), projektit.first?.tehtavat.map(\.otsikko) ?? [])
        }
        #expect(nimet == ["Muutto", "Verkkosivu"])
        #expect(tehtavat == [])
        let verkkosivu = try await MainActor.run {
            try container.mainContext.fetch(
                FetchDescriptor<Projekti>(predicate: #Predicate { $0.nimi == "Verkkosivu" })
            )
            .first?.tehtavat.map(\.otsikko)
        }
        #expect(verkkosivu == ["Suunnittele"])
    }

    @Test func batchImportSavesEveryBatch() async throws {
        let container = try makeInMemoryContainer(Projekti.self)
        let kohteet = (0..<250).map { ProjektiDTO(nimi: "p\($0)", kuvaus: "", luontipvm: .now, tehtavat: []) }
        try await MassatuontiPalvelu(modelContainer: container).tuoSuuriDatajoukko(kohteet)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Projekti>()) == 250)
    }

    @Test func identifiersCrossActorsAndTheSubscriptFindsModels() async throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let trip = Trip(name: "Oslo", destination: "Norway")
        context.insert(trip)
        try context.save()
        let id = trip.persistentModelID
        let reader = TripReader(modelContainer: container)
        #expect(await reader.name(of: id) == "Oslo")
        let missing = try PersistentIdentifier.identifier(for: id.storeIdentifier!, entityName: "Trip", primaryKey: 999)
        #expect(await reader.name(of: missing) == nil)
    }

    @Test func aHandWrittenModelActorCanShareAnExecutor() async throws {
        let container = try makeInMemoryContainer(Trip.self)
        let executor = DefaultSerialModelExecutor(modelContext: ModelContext(container))
        let writer = SharedExecutorActor(container: container, executor: executor)
        let reader = SharedExecutorActor(container: container, executor: executor)
        try await writer.insert(name: "Shared")
        #expect(await reader.pendingCount() == 1)
        try await writer.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }
}

@ModelActor
actor TripReader {
    func name(of id: PersistentIdentifier) -> String? {
        self[id, as: Trip.self]?.name
    }
}

/// A model actor written by hand, as apps do to share one executor (and context) between actors.
actor SharedExecutorActor: ModelActor {
    nonisolated let modelContainer: ModelContainer
    nonisolated let modelExecutor: any ModelExecutor

    init(container: ModelContainer, executor: any ModelExecutor) {
        self.modelContainer = container
        self.modelExecutor = executor
    }

    func insert(name: String) throws {
        modelContext.insert(Trip(name: name, destination: "x"))
    }

    func pendingCount() -> Int { modelContext.insertedModelsArray.count }

    func save() throws { try modelContext.save() }
}
