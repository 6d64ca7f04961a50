import Foundation
import SwiftData
import SwiftDataTool
import Testing

@Suite struct InspectTests {
    @Test func inspectDescribesEntitiesRelationshipsAndFiles() throws {
        let store = try OutingStore()
        let output = runTool("inspect", store.url.path).output
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "store: \(store.url.path)")
        #expect(lines[2] == "schema version: 1.0.0")
        #expect(lines[3].hasPrefix("files: outings.store "))
        #expect(lines[3].hasSuffix("external data 2 files \(2 * 200 * 1024) bytes"))
        #expect(lines[4].hasPrefix("history: ") && lines[4].contains("transaction"))
        #expect(!lines[4].contains("none"))
        let entities = output.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
        #expect(
            entities == """
                entity Companion: 2 rows
                  attributes:
                    name: String
                  relationships:
                    outings: to-many Outing, inverse companions, delete rule nullify, stored in join table Companion_outings

                entity Guide: 1 rows
                  attributes:
                    name: String
                  relationships:
                    outings: to-many Outing, inverse guide, delete rule nullify, stored in Outing.guide

                entity Outing: 2 rows
                  attributes:
                    title: String [unique]
                    isDone: Bool
                    count: Int
                    smallest: Int64
                    largest: UInt64
                    ratio: Double
                    negativeZero: Double
                    infinite: Double
                    precision: Float
                    price: Decimal
                    day: Date
                    bytes: Data
                    photo: Data [externalStorage]
                    link: URL
                    code: UUID
                    weather: Weather
                    route: Route
                    place: Place
                    notes: Array<String>
                    missing: Optional<String>
                  relationships:
                    guide: to-one Guide, inverse outings, delete rule nullify, stored in Outing.guide
                    companions: to-many Companion, inverse outings, delete rule nullify, stored in join table Companion_outings
                  unique: (title)

                """)
    }
}
