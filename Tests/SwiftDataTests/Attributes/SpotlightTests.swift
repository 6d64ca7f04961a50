import Foundation
import SwiftData
import Testing

@Suite struct SpotlightTests {
    func makeContext() throws -> (ModelContext, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let context = ModelContext(try makeContainer(Kayttaja.self, at: directory.store()))
        let people: [(String, String?)] = [
            ("a@x.fi", "Kehittäjä, joka rakastaa Swiftiä ja Linuxia"),
            ("b@x.fi", "Café-omistaja ja kahvin ystävä"),
            ("c@x.fi", "Swift Swift Swift: ohjelmointikieli"),
            ("d@x.fi", nil),
        ]
        for (email, intro) in people {
            let user = Kayttaja(sahkoposti: email, nimi: email)
            user.esittely = intro
            context.insert(user)
        }
        try context.save()
        return (context, directory)
    }

    @Test func searchMatchesWordsAndPrefixesIgnoringCaseAndDiacritics() throws {
        let (context, _) = try makeContext()
        #expect(try context.search(Kayttaja.self, matching: "swift").map(\.sahkoposti) == ["c@x.fi", "a@x.fi"])
        #expect(try context.search(Kayttaja.self, matching: "CAFE").map(\.sahkoposti) == ["b@x.fi"])
        #expect(try context.search(Kayttaja.self, matching: "kahv ystävä").map(\.sahkoposti) == ["b@x.fi"])
        #expect(try context.search(Kayttaja.self, matching: "swift kahvi").isEmpty)
        #expect(try context.search(Kayttaja.self, matching: "   ").isEmpty)
        #expect(try context.search(Kayttaja.self, matching: "swift", limit: 1).count == 1)
    }

    @Test func theIndexFollowsChangesDeletionsAndReopening() throws {
        let (context, directory) = try makeContext()
        let cafe = try #require(try context.search(Kayttaja.self, matching: "café").first)
        cafe.esittely = "Nyt teeharrastaja"
        try context.save()
        #expect(try context.search(Kayttaja.self, matching: "café").isEmpty)
        #expect(try context.search(Kayttaja.self, matching: "tee").map(\.sahkoposti) == ["b@x.fi"])
        let swift = try context.search(Kayttaja.self, matching: "swift")
        for user in swift { context.delete(user) }
        try context.save()
        #expect(try context.search(Kayttaja.self, matching: "swift").isEmpty)
        let reopened = ModelContext(try makeContainer(Kayttaja.self, at: directory.store()))
        #expect(try reopened.search(Kayttaja.self, matching: "teeh").map(\.sahkoposti) == ["b@x.fi"])
    }

    @Test func searchingAModelWithoutSpotlightAttributesIsAnError() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        #expect(throws: SwiftDataError.unsupportedPredicate) { try context.search(Trip.self, matching: "x") }
    }
}
