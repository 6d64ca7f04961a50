// Code that builds and walks a schema's entities the way Apple's documentation declares them: entities made from
// a name and properties, a hierarchy made with `init(_:subentities:properties:)`, the stored properties a store
// keeps, and the subentities a schema lists.
import Foundation
import SwiftData
import Testing

@Model
class Instrument {
    var name: String
    @Attribute(.ephemeral) var isTuned: Bool = false

    init(name: String) {
        self.name = name
    }
}

@available(iOS 26, macOS 26, *)
@Model
final class Violin: Instrument {
    var strings: Int

    init(name: String, strings: Int) {
        self.strings = strings
        super.init(name: name)
    }
}

/// The names of an entity's stored properties and of the entities below it, as a schema report prints them.
func report(_ entity: Schema.Entity) -> [String] {
    let own: [String] = entity.storedProperties.map { "\(entity.name).\($0.name)" }
    let byName: [String: any SchemaProperty] = entity.storedPropertiesByName
    let below: Set<Schema.Entity> = entity.subentities
    let parent: Schema.Entity? = entity.superentity
    return own + byName.keys.sorted() + below.map(\.name).sorted() + [parent?.name ?? "-"]
}

@Suite struct SchemaEntityTests {
    @Test func entitiesAreBuiltFromNamesAndProperties() {
        let empty = Schema.Entity("Empty")
        let note = Schema.Entity("Note", properties: Schema.Attribute(name: "text", valueType: String.self))
        let shape = Schema.Entity(
            "Shape",
            subentities: Schema.Entity("Circle", properties: Schema.Attribute(name: "radius", valueType: Double.self)),
            properties: Schema.Attribute(name: "color", valueType: String.self))
        let schema = Schema(empty, note, shape, version: Schema.Version(1, 1, 0))
        #expect(schema.entities.map(\.name) == ["Empty", "Note", "Shape", "Circle"])
        #expect(
            report(schema.entitiesByName["Circle"]!) == ["Circle.color", "Circle.radius", "color", "radius", "Shape"])
    }

    @Test func aSchemaListsTheSubclassesItWasGiven() throws {
        let schema = Schema([Instrument.self, Violin.self])
        let instrument = try #require(schema.entity(for: Instrument.self))
        #expect(instrument.subentities.map(\.name) == ["Violin"])
        #expect(instrument.storedProperties.map(\.name) == ["name"])
        #expect(report(try #require(schema.entity(for: Violin.self))).last == "Instrument")
        #expect(try #require(Schema([Instrument.self]).entity(for: Instrument.self)).subentities.isEmpty)
    }
}
