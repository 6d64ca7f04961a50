// Code that records the schema it shipped with and compares it with the running one, as apps that check for model
// changes do: `Schema.save(to:)` and `Schema.load(from:)`, and a schema or an entity encoded with `Codable`.
import Foundation
import SwiftData
import Testing

@Model
final class Cookbook {
    @Attribute(.unique) var title: String
    var minutes: Int?
    @Relationship(deleteRule: .cascade, inverse: \Chapter.cookbook) var chapters: [Chapter] = []

    init(title: String) {
        self.title = title
    }
}

@Model
final class Chapter {
    var text: String
    var cookbook: Cookbook?

    init(text: String) {
        self.text = text
    }
}

/// True when the running schema differs from the one recorded at `url`; records it when nothing was recorded.
func schemaChanged(since url: URL, current: Schema) throws -> Bool {
    guard FileManager.default.fileExists(atPath: url.path) else {
        try current.save(to: url)
        return false
    }
    let recorded: Schema = try Schema.load(from: url)
    return recorded != current
}

@Suite struct SchemaFileTests {
    @Test func aRecordedSchemaComparesWithTheRunningOne() throws {
        let url = try temporaryStoreURL().deletingLastPathComponent().appendingPathComponent("schema.json")
        let current = Schema([Cookbook.self, Chapter.self], version: Schema.Version(1, 2, 0))
        #expect(try schemaChanged(since: url, current: current) == false)
        #expect(try schemaChanged(since: url, current: current) == false)
        #expect(try schemaChanged(since: url, current: Schema([Cookbook.self, Chapter.self])))

        let recorded = try Schema.load(from: url)
        #expect(recorded.encodingVersion == Schema.schemaEncodingVersion)
        #expect(recorded.entitiesByName["Cookbook"]?.relationshipsByName["chapters"]?.destination == "Chapter")
        #expect(recorded.entity(for: Cookbook.self)?.attributesByName["minutes"]?.isOptional == true)
    }

    @Test func schemasAndEntitiesEncodeWithCodable() throws {
        let schema = Schema([Cookbook.self, Chapter.self])
        let data = try JSONEncoder().encode(schema)
        let decoded = try JSONDecoder().decode(Schema.self, from: data)
        #expect(decoded == schema)

        let entity = try #require(schema.entity(for: Chapter.self))
        let copy = try JSONDecoder().decode(Schema.Entity.self, from: try JSONEncoder().encode(entity))
        #expect(copy == entity)
        let attribute = try #require(entity.attributesByName["text"])
        let attributeCopy = try JSONDecoder().decode(Schema.Attribute.self, from: try JSONEncoder().encode(attribute))
        #expect(attributeCopy == attribute)
    }
}
