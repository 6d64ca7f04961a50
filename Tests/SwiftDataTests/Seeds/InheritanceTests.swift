import Foundation
import SwiftData
import Testing

@Suite struct InheritanceTests {
    let start = Date(timeIntervalSinceReferenceDate: 0)
    let end = Date(timeIntervalSinceReferenceDate: 86_400)

    func makeContainer(at url: URL) throws -> ModelContainer {
        // Subclasses are listed explicitly, as on Apple platforms.
        try ModelContainer(
            for: Matka.self, Tyomatka.self, Lomamatka.self,
            configurations: ModelConfiguration(url: url)
        )
    }

    func seeded(_ directory: TemporaryDirectory) throws -> ModelContainer {
        let container = try makeContainer(at: directory.store())
        let context = ModelContext(container)
        context.insert(Matka(kohde: "Tampere", alkupvm: start, loppupvm: end))
        context.insert(
            Tyomatka(
                kohde: "Oulu", alkupvm: start, loppupvm: end, paivaraha: 51, yritys: "Acme", kokousaiheet: ["budjetti"])
        )
        context.insert(Lomamatka(kohde: "Lappi", alkupvm: start, loppupvm: end, syy: .seikkailu, budjetti: 1500))
        context.insert(Lomamatka(kohde: "Rooma", alkupvm: start, loppupvm: end, syy: .kulttuuri, budjetti: 2500))
        try context.save()
        return container
    }

    @Test func aFetchOfTheBaseReturnsEveryInstanceAsItsOwnClass() throws {
        let directory = try TemporaryDirectory()
        _ = try seeded(directory)
        let context = ModelContext(try makeContainer(at: directory.store()))
        let kaikkiMatkat = try context.fetch(FetchDescriptor<Matka>(sortBy: [SortDescriptor(\.kohde)]))
        #expect(kaikkiMatkat.map(\.kohde) == ["Lappi", "Oulu", "Rooma", "Tampere"])
        #expect(
            kaikkiMatkat.map { String(describing: type(of: $0)) } == ["Lomamatka", "Tyomatka", "Lomamatka", "Matka"])
        let tyomatka = try #require(kaikkiMatkat[1] as? Tyomatka)
        #expect(tyomatka.yritys == "Acme")
        #expect(tyomatka.paivaraha == 51)
        #expect(tyomatka.kokousaiheet == ["budjetti"])
        #expect(tyomatka.persistentModelID.entityName == "Tyomatka")
    }

    @Test func aFetchOfASubclassReturnsOnlyItAndItsPredicatesRunInSQL() throws {
        let directory = try TemporaryDirectory()
        let container = try seeded(directory)
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Tyomatka>()).map(\.kohde) == ["Oulu"])
        let edullisetLomat = try context.fetch(FetchDescriptor<Lomamatka>(predicate: #Predicate { $0.budjetti < 2000 }))
        #expect(edullisetLomat.map(\.kohde) == ["Lappi"])
        #expect(edullisetLomat.first?.syy == .seikkailu)
        #expect(try context.fetchCount(FetchDescriptor<Lomamatka>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<Matka>()) == 4)
    }

    @Test func typeChecksAndCastsWorkInPredicates() throws {
        let directory = try TemporaryDirectory()
        let context = ModelContext(try seeded(directory))
        let onlyWork = try context.fetch(FetchDescriptor<Matka>(predicate: #Predicate { $0 is Tyomatka }))
        #expect(onlyWork.map(\.kohde) == ["Oulu"])
        let cheapHolidays = try context.fetch(
            FetchDescriptor<Matka>(predicate: #Predicate { (($0 as? Lomamatka)?.budjetti ?? 0) > 2000 })
        )
        #expect(cheapHolidays.map(\.kohde) == ["Rooma"])
    }

    @Test func changesAndDeletionsOfSubclassInstancesPersist() throws {
        let directory = try TemporaryDirectory()
        let container = try seeded(directory)
        let context = ModelContext(container)
        let loma = try #require(
            try context.fetch(FetchDescriptor<Lomamatka>(predicate: #Predicate { $0.budjetti < 2000 })).first)
        loma.budjetti = 1800
        loma.kohde = "Inari"
        try context.save()
        try context.delete(model: Lomamatka.self, where: #Predicate { $0.budjetti > 2000 })
        try context.save()
        let fresh = ModelContext(try makeContainer(at: directory.store()))
        let all = try fresh.fetch(FetchDescriptor<Matka>(sortBy: [SortDescriptor(\.kohde)]))
        #expect(all.map(\.kohde) == ["Inari", "Oulu", "Tampere"])
        #expect((all[0] as? Lomamatka)?.budjetti == 1800)
    }
}

@Model
final class Matkailija {
    var nimi: String
    @Relationship(inverse: nil) var matkat: [Matka] = []
    init(nimi: String) { self.nimi = nimi }
}

@Suite struct InheritanceRelationshipTests {
    @Test func relationshipsTypedToTheBaseHoldSubclassInstances() throws {
        let directory = try TemporaryDirectory()
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let configuration = ModelConfiguration(url: directory.store())
        do {
            let container = try ModelContainer(
                for: Matkailija.self, Matka.self, Tyomatka.self, Lomamatka.self, configurations: configuration)
            let context = ModelContext(container)
            let aino = Matkailija(nimi: "Aino")
            context.insert(aino)
            aino.matkat = [
                Tyomatka(kohde: "Oulu", alkupvm: start, loppupvm: start, paivaraha: 51, yritys: "Acme"),
                Matka(kohde: "Tampere", alkupvm: start, loppupvm: start),
            ]
            try context.save()
        }
        let container = try ModelContainer(
            for: Matkailija.self, Matka.self, Tyomatka.self, Lomamatka.self, configurations: configuration)
        let context = ModelContext(container)
        let aino = try #require(try context.fetch(FetchDescriptor<Matkailija>()).first)
        let trips = aino.matkat.sorted { $0.kohde < $1.kohde }
        #expect(trips.map(\.kohde) == ["Oulu", "Tampere"])
        #expect((trips[0] as? Tyomatka)?.yritys == "Acme")
        #expect(!(trips[1] is Tyomatka))
        // A predicate on an inherited property of a subclass still selects exactly (it runs in memory).
        #expect(try context.fetch(FetchDescriptor<Tyomatka>(predicate: #Predicate { $0.kohde == "Oulu" })).count == 1)
        try context.delete(model: Matka.self, includeSubclasses: false)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Matka>()).map(\.kohde) == ["Oulu"])
    }
}

@Suite struct InheritancePendingTests {
    @Test func unsavedSubclassInstancesTakePartInBaseFetches() throws {
        let context = ModelContext(
            try ModelContainer(
                for: Matka.self, Tyomatka.self, Lomamatka.self,
                configurations: ModelConfiguration(isStoredInMemoryOnly: true)
            )
        )
        let start = Date(timeIntervalSinceReferenceDate: 0)
        context.insert(Tyomatka(kohde: "Oulu", alkupvm: start, loppupvm: start, paivaraha: 1, yritys: "A"))
        context.insert(Matka(kohde: "Turku", alkupvm: start, loppupvm: start))
        #expect(
            try context.fetch(FetchDescriptor<Matka>(sortBy: [SortDescriptor(\.kohde)])).map(\.kohde) == [
                "Oulu", "Turku",
            ])
        #expect(try context.fetch(FetchDescriptor<Tyomatka>()).map(\.kohde) == ["Oulu"])
    }
}
