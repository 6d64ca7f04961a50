import Foundation
import SwiftData
import Testing

/// A model with a transient attribute, a unique one and an index, for the schema's descriptions of properties.
@Model
final class Gauge {
    #Index<Gauge>([\.label])

    @Attribute(.unique) var serial: String
    var label: String
    @Attribute(.ephemeral) var reading: Double = 0

    init(serial: String, label: String) {
        self.serial = serial
        self.label = label
    }
}

@Suite struct SchemaEntityTests {
    @Test func subentitiesAreTheSchemasEntitiesThatInheritFromTheEntity() throws {
        // Every class of the hierarchy has been used by this process (other tests of the target use them too):
        // each schema still answers from its own entities.
        _ = Schema([Matka.self, Tyomatka.self, Lomamatka.self])

        let baseOnly = Schema([Matka.self])
        #expect(try #require(baseOnly.entity(for: Matka.self)).subentities.isEmpty)

        let oneSubclass = Schema([Matka.self, Tyomatka.self])
        let matka = try #require(oneSubclass.entity(for: Matka.self))
        let tyomatka = try #require(oneSubclass.entity(for: Tyomatka.self))
        #expect(matka.subentities.map(\.name) == ["Tyomatka"])
        #expect(try #require(matka.subentities.first) === tyomatka)
        #expect(tyomatka.superentity === matka)
        #expect(tyomatka.superentityName == "Matka")
        #expect(tyomatka.subentities.isEmpty)

        let whole = Schema([Matka.self, Tyomatka.self, Lomamatka.self])
        #expect(
            Set(try #require(whole.entity(for: Matka.self)).subentities.map(\.name)) == ["Tyomatka", "Lomamatka"])
    }

    @Test func aSchemaOfASubclassIncludesTheClassesItInheritsFrom() throws {
        let schema = Schema([Tyomatka.self])
        #expect(schema.entities.map(\.name) == ["Tyomatka", "Matka"])
        let tyomatka = try #require(schema.entity(for: Tyomatka.self))
        #expect(tyomatka.superentity === schema.entity(for: Matka.self))
        #expect(tyomatka.inheritedProperties.map(\.name) == ["kohde", "alkupvm", "loppupvm", "muistiinpanot"])
        #expect(tyomatka.properties.map(\.name).suffix(3) == ["paivaraha", "yritys", "kokousaiheet"])
    }

    @Test func aSubclassEntityKeepsItsPropertiesWhenItsSchemaIsGone() throws {
        let tyomatka = try #require(Schema([Matka.self, Tyomatka.self]).entity(for: Tyomatka.self))
        #expect(tyomatka.properties.count == 7)
        #expect(tyomatka.inheritedProperties.count == 4)
    }

    @Test func storedPropertiesLeaveOutTransientAttributes() throws {
        let gauge = try #require(Schema([Gauge.self]).entity(for: Gauge.self))
        #expect(gauge.properties.map(\.name) == ["serial", "label", "reading"])
        #expect(gauge.storedProperties.map(\.name) == ["serial", "label"])
        #expect(gauge.storedPropertiesByName.keys.sorted() == ["label", "serial"])
        #expect(gauge.storedPropertiesByName["serial"]?.isUnique == true)
        #expect(gauge.uniquenessConstraints == [["serial"]])
        #expect(gauge.indices == [["label"]])
    }

    @Test func entitiesOfTwoSchemasOfTheSameModelsAreEqual() throws {
        let first = try #require(Schema([Trip.self]).entity(for: Trip.self))
        let second = try #require(Schema([Trip.self, TripTag.self]).entity(for: Trip.self))
        #expect(first !== second)
        #expect(first == second)
        #expect(first != Schema([TripTag.self]).entity(for: TripTag.self))
        #expect(Schema([Trip.self]) == Schema([Trip.self]))
        #expect(Schema([Trip.self]) != Schema([Trip.self], version: Schema.Version(2, 0, 0)))
    }

    @Test func entitiesWithoutModelClassesDescribeAHierarchy() throws {
        let wheels = Schema.Attribute(name: "wheels", valueType: Int.self)
        let payload = Schema.Attribute(name: "payload", options: [.unique], valueType: Double?.self)
        let truck = Schema.Entity("Truck", properties: payload)
        let vehicle = Schema.Entity("Vehicle", subentities: truck, properties: wheels)
        let trailer = Schema.Entity("Trailer")

        #expect(truck.superentity === vehicle)
        #expect(vehicle.subentities == [truck])
        #expect(truck.properties.map(\.name) == ["wheels", "payload"])
        #expect(truck.inheritedPropertiesByName.keys.sorted() == ["wheels"])
        #expect(truck.attributesByName["payload"]?.isOptional == true)
        #expect(truck.uniquenessConstraints == [["payload"]])
        #expect(trailer.properties.isEmpty)

        let schema = Schema(vehicle, trailer)
        #expect(schema.entities.map(\.name) == ["Vehicle", "Trailer", "Truck"])
        #expect(schema.entitiesByName["Truck"] === truck)
    }

    @Test func anEntityMadeWithAnotherSchemasEntityLeavesThatSchemaAsItWas() throws {
        let schema = Schema([Matka.self, Tyomatka.self])
        let matka = try #require(schema.entity(for: Matka.self))
        let tyomatka = try #require(schema.entity(for: Tyomatka.self))
        let travel = Schema.Entity(
            "Travel", subentities: tyomatka, properties: Schema.Attribute(name: "cost", valueType: Double.self))

        #expect(tyomatka.superentity === matka)
        #expect(matka.subentities.map(\.name) == ["Tyomatka"])
        #expect(schema == Schema([Matka.self, Tyomatka.self]))
        let copy = try #require(travel.subentities.first)
        #expect(copy !== tyomatka)
        #expect(copy.name == "Tyomatka")
        #expect(copy.superentity === travel)
        #expect(copy.properties.map(\.name) == ["cost", "paivaraha", "yritys", "kokousaiheet"])

        // A root entity of a schema, with the entities below it.
        let journey = Schema.Entity("Journey", subentities: matka)
        #expect(matka.superentity == nil)
        #expect(schema == Schema([Matka.self, Tyomatka.self]))
        let matkaCopy = try #require(journey.subentities.first)
        #expect(matkaCopy !== matka)
        #expect(matkaCopy.superentityName == "Journey")
        let tyomatkaCopy = try #require(matkaCopy.subentities.first)
        #expect(tyomatkaCopy !== tyomatka)
        #expect(tyomatkaCopy.superentity === matkaCopy)
        #expect(tyomatkaCopy.properties.map(\.name) == tyomatka.properties.map(\.name))
    }

    @Test func anEntityMadeWithASubentityOfAnotherEntityTakesACopy() throws {
        let truck = Schema.Entity("Truck", properties: Schema.Attribute(name: "payload", valueType: Int.self))
        let vehicle = Schema.Entity("Vehicle", subentities: truck)
        let car = Schema.Entity("Car", subentities: truck)
        #expect(truck.superentity === vehicle)
        #expect(vehicle.subentities == [truck])
        let truckCopy = try #require(car.subentities.first)
        #expect(truckCopy !== truck)
        #expect(car.subentities.map(\.name) == ["Truck"])

        // An entity of a schema without a superentity stays as its schema holds it.
        let trailer = Schema.Entity("Trailer")
        let schema = Schema(trailer)
        let hitch = Schema.Entity("Hitch", subentities: trailer)
        #expect(trailer.superentity == nil)
        #expect(schema.entities.map(\.name) == ["Trailer"])
        let trailerCopy = try #require(hitch.subentities.first)
        #expect(trailerCopy !== trailer)
    }

    @Test func aContainerRefusesASchemaWhoseEntitiesHaveNoModelClass() throws {
        let schema = Schema(Schema.Entity("Ghost", properties: Schema.Attribute(name: "name", valueType: String.self)))
        #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try ModelContainer(for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
    }

    @Test func aSchemaOfAnotherSchemasEntitiesHasEntitiesOfItsOwn() throws {
        let original = Schema([Matka.self, Tyomatka.self, Lomamatka.self])
        let copy = Schema(try #require(original.entity(for: Tyomatka.self)))
        #expect(copy.entities.map(\.name) == ["Tyomatka", "Matka"])
        #expect(try #require(copy.entity(for: Matka.self)).subentities.map(\.name) == ["Tyomatka"])
        #expect(try #require(original.entity(for: Matka.self)).subentities.count == 2)
    }
}
