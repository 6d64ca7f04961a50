import Foundation
import SwiftData
import Testing

@Suite struct StringSemanticsTests {
    func context(with names: [String]) throws -> ModelContext {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        for (index, name) in names.enumerated() {
            context.insert(
                Trip(name: name, destination: "d", startDate: Date(timeIntervalSinceReferenceDate: Double(index))))
        }
        try context.save()
        return context
    }

    @Test func equalityFollowsCanonicalEquivalence() throws {
        let context = try context(with: ["caf\u{E9}", "cafe\u{301}", "cafe", "CAFÉ"])
        let precomposed = "caf\u{E9}"
        let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == precomposed }))
        #expect(found.count == 2)
        #expect(Set(found.map(\.name.unicodeScalars.count)) == [4, 5])
    }

    @Test func sortingMatchesSwiftsStringOrder() throws {
        let names = ["b", "a\u{301}", "\u{E1}", "A", "🚀", "", "z", "ä", "a"]
        let context = try context(with: names)
        let sorted = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(sorted == names.sorted())
    }

    @Test func localizedStandardContainsIgnoresCaseAndDiacritics() throws {
        let context = try context(with: ["Crème Brûlée", "creme", "Tiramisu"])
        let query = "CREME"
        let found = try context.fetch(
            FetchDescriptor<Trip>(
                predicate: #Predicate { $0.name.localizedStandardContains(query) }, sortBy: [SortDescriptor(\.name)])
        )
        #expect(found.map(\.name) == ["Crème Brûlée", "creme"])
    }

    @Test func caseInsensitiveAndLocalizedCompareEvaluateInMemoryAndInSQL() throws {
        let context = try context(with: ["Alpha", "alpha", "beta"])
        let same = ComparisonResult.orderedSame
        let predicate = #Predicate<Trip> { $0.name.caseInsensitiveCompare("ALPHA") == same }
        let everyone = try context.fetch(FetchDescriptor<Trip>())
        #expect(try everyone.filter { try predicate.evaluate($0) }.count == 2)
        #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == 2)
    }

    @Test func seed000RepositoryFindsProjectsByName() throws {
        let context = ModelContext(try makeInMemoryContainer(Projekti.self))
        let repository: any ProjektiRepository = SwiftDataProjektiRepository(modelContext: context)
        try repository.lisaa(Projekti(nimi: "Swift-sovellus", kuvaus: ""))
        try repository.lisaa(Projekti(nimi: "Kotisivu", kuvaus: "", onValmis: true))
        #expect(try repository.haeNimella("swift").map(\.nimi) == ["Swift-sovellus"])
        #expect(try repository.haeKeskeneraiset().map(\.nimi) == ["Swift-sovellus"])
        #expect(try repository.haeKaikki().count == 2)
        let kotisivu = try #require(try repository.haeKaikki().first { $0.nimi == "Kotisivu" })
        try repository.poista(kotisivu)
        #expect(try repository.haeKaikki().count == 1)
    }
}
