import Foundation
import SwiftData
import Testing

/// What a sensor measures: a type only the app knows.
enum SensorKind: String, Codable {
    case thermometer, barometer
}

/// A model with an attribute of each option. (Not `User` of the attribute tests: building its entity before they
/// register its named transformer would leave it without one.)
@Model
final class Sensor {
    @Attribute(.unique) var serial: String
    @Attribute(.externalStorage) var snapshot: Data?
    @Attribute(.transformable(by: URLTransformer.self)) var homepage: URL?
    @Attribute(.transformable(by: "SensorManualTransformer")) var manual: URL?
    @Attribute(.ephemeral) var draft: String = ""
    @Attribute(.allowsCloudEncryption) var secret: String = ""
    var kind: SensorKind

    init(serial: String, kind: SensorKind) {
        self.serial = serial
        self.kind = kind
    }
}

/// True when a value type is the given type.
private func isType(_ type: (any Any.Type)?, _ expected: any Any.Type) -> Bool { type == expected }

@Suite struct SchemaCodingTests {
    /// A schema with attributes of every kind of option, composite attributes, relationships, constraints, indices
    /// and a class hierarchy.
    let schema = Schema(
        [Sensor.self, Visit.self, Trip.self, Gauge.self, Matka.self, Tyomatka.self, Lomamatka.self],
        version: Schema.Version(3, 1, 4))

    func roundTrip(_ schema: Schema) throws -> Schema {
        try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(schema))
    }

    @Test func aDecodedSchemaEqualsTheSchemaItWasEncodedFrom() throws {
        let decoded = try roundTrip(schema)
        #expect(decoded == schema)
        #expect(decoded.version == Schema.Version(3, 1, 4))
        #expect(decoded.encodingVersion == Schema.schemaEncodingVersion)
        #expect(decoded.entities.map(\.name) == schema.entities.map(\.name))
        for entity in schema.entities {
            let copy = try #require(decoded.entitiesByName[entity.name])
            #expect(copy == entity)
            #expect(copy.properties.map(\.name) == entity.properties.map(\.name))
            #expect(copy.storedProperties.map(\.name) == entity.storedProperties.map(\.name))
            #expect(copy.uniquenessConstraints == entity.uniquenessConstraints)
            #expect(copy.indices == entity.indices)
            #expect(copy.superentityName == entity.superentityName)
            #expect(Set(copy.subentities.map(\.name)) == Set(entity.subentities.map(\.name)))
        }
        // Encoding the decoded schema writes what the original wrote.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(decoded) == encoder.encode(schema))
    }

    @Test func attributesKeepTheirTypesOptionsAndNames() throws {
        let sensor = try #require(try roundTrip(schema).entitiesByName["Sensor"])
        let serial = try #require(sensor.attributesByName["serial"])
        #expect(isType(serial.valueType, String.self))
        #expect(serial.options == [.unique])
        #expect(serial.isUnique)
        #expect(isType(sensor.attributesByName["snapshot"]?.valueType, Data?.self))
        #expect(sensor.attributesByName["snapshot"]?.isOptional == true)
        #expect(sensor.attributesByName["snapshot"]?.options == [.externalStorage])
        #expect(sensor.attributesByName["homepage"]?.options == [.transformable(by: URLTransformer.self)])
        #expect(sensor.attributesByName["homepage"]?.isTransformable == true)
        #expect(sensor.attributesByName["manual"]?.options == [.transformable(by: "SensorManualTransformer")])
        #expect(sensor.attributesByName["manual"]?.options != [.transformable(by: URLTransformer.self)])
        #expect(sensor.attributesByName["draft"]?.isTransient == true)
        #expect(sensor.storedPropertiesByName["draft"] == nil)
        #expect(sensor.attributesByName["secret"]?.options == [.allowsCloudEncryption])
        // A value type only the app knows keeps its name, not its type; a decoded attribute has no default value.
        let kind = try #require(sensor.attributesByName["kind"])
        #expect(isType(kind.valueType, Any.self))
        #expect(kind.isOptional == false)
        #expect(sensor.attributesByName["draft"]?.defaultValue == nil)
        #expect(schema.entitiesByName["Sensor"]?.attributesByName["draft"]?.defaultValue != nil)
        #expect(kind == schema.entitiesByName["Sensor"]?.attributesByName["kind"])
    }

    @Test func compositeAttributesKeepTheirFields() throws {
        let visit = try #require(try roundTrip(schema).entitiesByName["Visit"])
        let place = try #require(visit.attributesByName["place"] as? Schema.CompositeAttribute)
        let original = try #require(
            schema.entitiesByName["Visit"]?.attributesByName["place"] as? Schema.CompositeAttribute)
        #expect(place.properties.map(\.name) == original.properties.map(\.name))
        #expect(place.properties.map(\.name).prefix(3) == ["name", "point.latitude", "point.longitude"])
        #expect(place == original)
        #expect(visit.attributesByName["maybe"]?.isOptional == true)
        #expect(visit.attributesByName["maybe"] is Schema.CompositeAttribute)
    }

    @Test func relationshipsKeepTheirDestinationInverseRuleAndCardinality() throws {
        let decoded = try roundTrip(schema)
        let trip = try #require(decoded.entitiesByName["Trip"])
        let bucketList = try #require(trip.relationshipsByName["bucketList"])
        #expect(bucketList.destination == "BucketListItem")
        #expect(bucketList.inverseName == "trip")
        #expect(bucketList.deleteRule == .cascade)
        #expect(!bucketList.isToOneRelationship)
        #expect(bucketList.keypath == nil)
        let accommodation = try #require(trip.relationshipsByName["livingAccommodation"])
        #expect(accommodation.isToOneRelationship)
        #expect(accommodation.isOptional)
        #expect(decoded.entitiesByName["TripTag"]?.relationshipsByName["trips"]?.inverseName == "tags")
        #expect(trip.relationships == schema.entitiesByName["Trip"]?.relationships)
    }

    @Test func aDecodedHierarchyIsLinkedByName() throws {
        let decoded = try roundTrip(schema)
        let matka = try #require(decoded.entitiesByName["Matka"])
        let tyomatka = try #require(decoded.entitiesByName["Tyomatka"])
        #expect(tyomatka.superentity === matka)
        #expect(Set(matka.subentities.map(\.name)) == ["Tyomatka", "Lomamatka"])
        #expect(tyomatka.inheritedProperties.map(\.name) == ["kohde", "alkupvm", "loppupvm", "muistiinpanot"])
        #expect(tyomatka.properties.count == 7)
    }

    @Test func aChangedModelMakesTheSchemasDiffer() throws {
        let decoded = try roundTrip(Schema([Trip.self]))
        #expect(decoded != Schema([Trip.self], version: Schema.Version(1, 1, 0)))
        #expect(decoded != Schema([Trip.self, Gauge.self]))
        let renamed = Schema(
            Schema.Entity("Gauge", properties: Schema.Attribute(name: "serial", valueType: String.self)))
        let original = Schema(
            Schema.Entity("Gauge", properties: Schema.Attribute(name: "serial", valueType: Int.self)))
        #expect(try roundTrip(renamed) != original)
        #expect(try roundTrip(original) == original)
    }

    @Test func saveWritesAFileThatLoadReadsBack() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("schema.json")
        try schema.save(to: url)
        let loaded = try Schema.load(from: url)
        #expect(loaded == schema)
        // Saving again replaces the file with the same bytes.
        let first = try Data(contentsOf: url)
        try loaded.save(to: url)
        #expect(try Data(contentsOf: url) == first)
        #expect(throws: (any Error).self) { try Schema.load(from: directory.url.appendingPathComponent("none.json")) }
    }

    @Test func aContainerRefusesADecodedSchema() throws {
        let decoded = try roundTrip(Schema([Trip.self]))
        #expect(decoded.entity(for: Trip.self) != nil)
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try ModelContainer(for: decoded, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
    }

    @Test func decodingRefusesALaterEncodingAndAMissingSuperentity() throws {
        let later =
            #"{"encodingVersion":{"major":2,"minor":0,"patch":0},"version":{"major":1,"minor":0,"patch":0},"#
            + #""entities":[]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Schema.self, from: Data(later.utf8)) }
        let orphan =
            #"{"encodingVersion":{"major":1,"minor":0,"patch":0},"version":{"major":1,"minor":0,"patch":0},"#
            + #""entities":[{"name":"Truck","superentityName":"Vehicle","properties":[]}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Schema.self, from: Data(orphan.utf8)) }
        let newer =
            #"{"encodingVersion":{"major":1,"minor":4,"patch":0},"version":{"major":1,"minor":0,"patch":0},"#
            + #""entities":[]}"#
        #expect(try JSONDecoder().decode(Schema.self, from: Data(newer.utf8)).encodingVersion.minor == 4)
    }

    /// Entities whose inheritance loops: an entity that names itself, two or three that name each other, and an
    /// entity whose chain leads into such a loop.
    static let loopingEntities = [
        #"[{"name":"A","superentityName":"A","properties":[]}]"#,
        #"[{"name":"A","superentityName":"B","properties":[]},{"name":"B","superentityName":"A","properties":[]}]"#,
        #"[{"name":"A","superentityName":"B","properties":[]},{"name":"B","superentityName":"C","properties":[]},"#
            + #"{"name":"C","superentityName":"A","properties":[]}]"#,
        #"[{"name":"Z","superentityName":"A","properties":[]},{"name":"A","superentityName":"B","properties":[]},"#
            + #"{"name":"B","superentityName":"A","properties":[]}]"#,
    ]

    @Test(arguments: loopingEntities)
    func decodingRefusesInheritanceThatLoops(_ entities: String) throws {
        let json =
            #"{"encodingVersion":{"major":1,"minor":0,"patch":0},"version":{"major":1,"minor":0,"patch":0},"#
            + #""entities":\#(entities)}"#
        // Nothing of a decoded schema is read: reading the properties of a looping entity never ends.
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(Schema.self, from: Data(json.utf8)) }
    }

    @Test func aLongChainOfSuperentitiesDecodes() throws {
        let entities = (0..<50).map { index in
            index == 0
                ? #"{"name":"E0","properties":[]}"#
                : #"{"name":"E\#(index)","superentityName":"E\#(index - 1)","properties":[]}"#
        }
        let json =
            #"{"encodingVersion":{"major":1,"minor":0,"patch":0},"version":{"major":1,"minor":0,"patch":0},"#
            + #""entities":[\#(entities.reversed().joined(separator: ","))]}"#
        let schema = try JSONDecoder().decode(Schema.self, from: Data(json.utf8))
        #expect(schema.entitiesByName["E49"]?.superentityName == "E48")
        #expect(try #require(schema.entitiesByName["E0"]).subentities.map(\.name) == ["E1"])
    }

    /// A schema encoded, with the encoding of one of its entities changed, then decoded.
    func decoded(_ schema: Schema, changingEntity name: String, _ change: (inout [String: Any]) throws -> Void)
        throws -> Schema
    {
        var root = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(schema)) as? [String: Any])
        var entities = try #require(root["entities"] as? [[String: Any]])
        let index = try #require(entities.firstIndex { $0["name"] as? String == name })
        try change(&entities[index])
        root["entities"] = entities
        return try JSONDecoder().decode(Schema.self, from: try JSONSerialization.data(withJSONObject: root))
    }

    @Test func entitiesDifferInTheirUniquenessConstraintsAndIndices() throws {
        let gauges = Schema([Gauge.self])
        #expect(try decoded(gauges, changingEntity: "Gauge") { _ in } == gauges)
        let unconstrained = try decoded(gauges, changingEntity: "Gauge") { $0["uniquenessConstraints"] = nil }
        #expect(unconstrained.entitiesByName["Gauge"]?.uniquenessConstraints == [])
        #expect(unconstrained.entitiesByName["Gauge"] != gauges.entitiesByName["Gauge"])
        #expect(unconstrained != gauges)
        let reindexed = try decoded(gauges, changingEntity: "Gauge") { $0["indices"] = [["serial"]] }
        #expect(reindexed.entitiesByName["Gauge"] != gauges.entitiesByName["Gauge"])
        #expect(reindexed != gauges)
    }

    @Test(arguments: ["minimumModelCount", "maximumModelCount", "isOptional", "originalName", "hashModifier"])
    func relationshipsDifferInEachEncodedValue(_ key: String) throws {
        let trips = Schema([Trip.self])
        let changed = try decoded(trips, changingEntity: "Trip") { trip in
            var properties = try #require(trip["properties"] as? [[String: Any]])
            let index = try #require(properties.firstIndex { $0["name"] as? String == "bucketList" })
            switch key {
            case "isOptional": properties[index][key] = !(properties[index][key] as? Bool ?? false)
            case "minimumModelCount", "maximumModelCount": properties[index][key] = 5
            default: properties[index][key] = "changed"
            }
            trip["properties"] = properties
        }
        let relationship = try #require(changed.entitiesByName["Trip"]?.relationshipsByName["bucketList"])
        #expect(relationship != trips.entitiesByName["Trip"]?.relationshipsByName["bucketList"])
        #expect(changed.entitiesByName["Trip"] != trips.entitiesByName["Trip"])
        #expect(changed != trips)
    }

    @Test func anEntityDecodedOnItsOwnKnowsItsSuperentityByName() throws {
        let tyomatka = try #require(schema.entitiesByName["Tyomatka"])
        let decoded = try JSONDecoder().decode(Schema.Entity.self, from: try JSONEncoder().encode(tyomatka))
        #expect(decoded.superentity == nil)
        #expect(decoded.superentityName == "Matka")
        #expect(decoded.properties.map(\.name) == ["paivaraha", "yritys", "kokousaiheet"])
    }
}
