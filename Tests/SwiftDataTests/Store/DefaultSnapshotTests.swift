import Foundation
import Testing

@testable import SwiftData

// A voyage with attributes of every kind a snapshot holds, and both kinds of relationship.

enum VoyageKind: String, Codable {
    case cruise, ferry
}

struct VoyageRoute: Codable, Equatable {
    var from: String
    var to: String
    var miles: Double
}

/// A value that is not `Codable`: snapshots hold it as its transformer's `Data`.
final class VoyageStamp {
    let text: String
    init(text: String) { self.text = text }
}

final class VoyageStampTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? VoyageStamp).map { Data($0.text.utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).map { VoyageStamp(text: String(decoding: $0, as: UTF8.self)) }
    }
}

@Model
final class SnapshotVoyage {
    var name: String
    var notes: String?
    var kind: VoyageKind
    var previousKind: VoyageKind?
    var route: VoyageRoute
    var departure: Date
    var ticket: Data
    var tags: [String]
    var rating: Int?
    var budget: Decimal = 0
    @Attribute(.transformable(by: VoyageStampTransformer.self)) var stamp: VoyageStamp
    @Relationship(deleteRule: .cascade, inverse: \SnapshotPort.voyage) var ports: [SnapshotPort] = []
    var cabin: SnapshotCabin?

    init(name: String, kind: VoyageKind, route: VoyageRoute, departure: Date, ticket: Data, tags: [String]) {
        self.name = name
        self.kind = kind
        self.route = route
        self.departure = departure
        self.ticket = ticket
        self.tags = tags
        self.stamp = VoyageStamp(text: "approved")
    }
}

@Model
final class SnapshotPort {
    var name: String
    var voyage: SnapshotVoyage?
    init(name: String) { self.name = name }
}

@Model
final class SnapshotCabin {
    var number: Int
    init(number: Int) { self.number = number }
}

@Suite struct DefaultSnapshotTests {
    private let departure = Date(timeIntervalSinceReferenceDate: 700_000_000.125)

    /// A voyage with two ports and a cabin, inserted into a context of an in-memory store and not saved.
    private func makeVoyage(in context: ModelContext) -> SnapshotVoyage {
        let voyage = SnapshotVoyage(
            name: "Lisbon", kind: .cruise, route: VoyageRoute(from: "Porto", to: "Lisbon", miles: 170.5),
            departure: departure, ticket: Data([0, 1, 2, 255]), tags: ["sea", "sun"])
        voyage.notes = "window seat"
        voyage.previousKind = .ferry
        voyage.budget = Decimal(string: "1234.56")!
        context.insert(voyage)
        voyage.ports = [SnapshotPort(name: "Porto"), SnapshotPort(name: "Lisbon")]
        voyage.cabin = SnapshotCabin(number: 12)
        return voyage
    }

    private func snapshot(of model: some PersistentModel) -> DefaultSnapshot {
        var related: [PersistentIdentifier: any BackingData] = [:]
        return DefaultSnapshot(from: model.persistentBackingData, relatedBackingDatas: &related)
    }

    private func attribute(_ name: String, of snapshot: DefaultSnapshot) -> Any? {
        guard case .attribute(let value)? = snapshot.values[name] else { return nil }
        return value
    }

    private func encoded(_ snapshots: [DefaultSnapshot]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(snapshots)
    }

    @Test func aSnapshotHoldsEveryPropertyByNameAndRelationshipsAsIdentifiers() throws {
        let context = ModelContext(try makeInMemoryContainer(SnapshotVoyage.self))
        let voyage = makeVoyage(in: context)
        var related: [PersistentIdentifier: any BackingData] = [:]
        let snapshot = DefaultSnapshot(from: voyage.persistentBackingData, relatedBackingDatas: &related)

        #expect(snapshot.persistentIdentifier == voyage.persistentModelID)
        #expect(attribute("name", of: snapshot) as? String == "Lisbon")
        #expect(attribute("notes", of: snapshot) as? String? == "window seat")
        #expect(attribute("kind", of: snapshot) as? VoyageKind == .cruise)
        #expect(attribute("previousKind", of: snapshot) as? VoyageKind? == .ferry)
        #expect(
            attribute("route", of: snapshot) as? VoyageRoute == VoyageRoute(from: "Porto", to: "Lisbon", miles: 170.5))
        #expect(attribute("departure", of: snapshot) as? Date == departure)
        #expect(attribute("ticket", of: snapshot) as? Data == Data([0, 1, 2, 255]))
        #expect(attribute("tags", of: snapshot) as? [String] == ["sea", "sun"])
        let rating = try #require(attribute("rating", of: snapshot))
        #expect(type(of: rating) == Int?.self)
        #expect(rating as? Int == nil)
        #expect(attribute("budget", of: snapshot) as? Decimal == Decimal(string: "1234.56"))
        #expect((attribute("stamp", of: snapshot) as? VoyageStamp)?.text == "approved")

        let portIDs = voyage.ports.map(\.persistentModelID)
        guard case .toMany(let ports)? = snapshot.values["ports"], case .toOne(let cabin)? = snapshot.values["cabin"]
        else {
            Issue.record("relationships are missing: \(snapshot.values.keys.sorted())")
            return
        }
        #expect(ports == portIDs)
        #expect(cabin == voyage.cabin?.persistentModelID)
        #expect(Set(related.keys) == Set(portIDs + [voyage.cabin!.persistentModelID]))

        let port = self.snapshot(of: voyage.ports[0])
        guard case .toOne(let back)? = port.values["voyage"] else {
            Issue.record("the port's voyage is missing")
            return
        }
        #expect(back == voyage.persistentModelID)
    }

    @Test func snapshotsRoundTripThroughJSONAndBecomeModelsAgain() throws {
        let context = ModelContext(try makeInMemoryContainer(SnapshotVoyage.self))
        let voyage = makeVoyage(in: context)
        let snapshots = [snapshot(of: voyage), snapshot(of: voyage.cabin!)] + voyage.ports.map { snapshot(of: $0) }

        let data = try encoded(snapshots)
        let decoded = try JSONDecoder().decode([DefaultSnapshot].self, from: data)
        #expect(decoded.map(\.persistentIdentifier) == snapshots.map(\.persistentIdentifier))
        #expect(try encoded(decoded) == data)

        let models = DefaultSnapshot.makeModels(decoded)
        let copy = try #require(models[voyage.persistentModelID] as? SnapshotVoyage)
        #expect(copy !== voyage)
        #expect(copy.persistentModelID == voyage.persistentModelID)
        #expect(copy.modelContext == nil)
        #expect(copy.name == "Lisbon")
        #expect(copy.notes == "window seat")
        #expect(copy.kind == .cruise)
        #expect(copy.previousKind == .ferry)
        #expect(copy.route == voyage.route)
        #expect(copy.departure == departure)
        #expect(copy.ticket == Data([0, 1, 2, 255]))
        #expect(copy.tags == ["sea", "sun"])
        #expect(copy.rating == nil)
        #expect(copy.budget == Decimal(string: "1234.56"))
        #expect(copy.stamp.text == "approved")
        #expect(copy.ports.map(\.name) == ["Porto", "Lisbon"])
        #expect(copy.ports.map(\.persistentModelID) == voyage.ports.map(\.persistentModelID))
        #expect(copy.ports.allSatisfy { $0.voyage === copy })
        #expect(copy.cabin?.number == 12)
        #expect(copy.cabin === models[voyage.cabin!.persistentModelID])
        #expect(!copy.hasChanges)
    }

    @Test func aFetchedModelsSnapshotReadsAnUnloadedToOneWithoutLoadingIt() throws {
        let container = try makeInMemoryContainer(SnapshotVoyage.self)
        let writer = ModelContext(container)
        let saved = makeVoyage(in: writer)
        try writer.save()
        let voyageID = saved.persistentModelID
        let cabinID = try #require(saved.cabin?.persistentModelID)
        let portIDs = saved.ports.map(\.persistentModelID)

        let reader = ModelContext(container)
        let fetched = try #require(try reader.fetch(FetchDescriptor<SnapshotVoyage>()).first)
        let snapshot = self.snapshot(of: fetched)
        #expect(snapshot.persistentIdentifier == voyageID)
        guard case .toOne(let cabin)? = snapshot.values["cabin"], case .toMany(let ports)? = snapshot.values["ports"]
        else {
            Issue.record("relationships are missing")
            return
        }
        #expect(cabin == cabinID)
        #expect(Set(ports) == Set(portIDs))
        let loadedCabin: SnapshotCabin? = reader.registeredModel(for: cabinID)
        #expect(loadedCabin == nil)
        #expect(attribute("route", of: snapshot) as? VoyageRoute == saved.route)
        #expect(attribute("departure", of: snapshot) as? Date == departure)
    }

    @Test func copyGivesANewIdentifierAndRemapsRelatedOnes() throws {
        let context = ModelContext(try makeInMemoryContainer(SnapshotVoyage.self))
        let voyage = makeVoyage(in: context)
        let original = snapshot(of: voyage)
        let newVoyage = try PersistentIdentifier.identifier(
            for: "json", entityName: "SnapshotVoyage", primaryKey: UUID())
        let newPort = try PersistentIdentifier.identifier(for: "json", entityName: "SnapshotPort", primaryKey: UUID())
        let oldPort = voyage.ports[0].persistentModelID

        let copy = original.copy(persistentIdentifier: newVoyage, remappedIdentifiers: [oldPort: newPort])
        #expect(copy.persistentIdentifier == newVoyage)
        guard case .toMany(let ports)? = copy.values["ports"], case .toMany(let before)? = original.values["ports"]
        else {
            Issue.record("ports are missing")
            return
        }
        #expect(ports == [newPort, voyage.ports[1].persistentModelID])
        #expect(before == voyage.ports.map(\.persistentModelID))
        #expect(attribute("name", of: copy) as? String == "Lisbon")

        let plain = original.copy(persistentIdentifier: newVoyage)
        guard case .toMany(let unchanged)? = plain.values["ports"] else {
            Issue.record("ports are missing")
            return
        }
        #expect(unchanged == before)
    }

    @Test func decodingASnapshotOfAnUnknownEntityThrows() throws {
        let identifier = try PersistentIdentifier.identifier(
            for: "json", entityName: "NoSuchEntityAnywhere", primaryKey: "x")
        let encodedIdentifier = String(decoding: try JSONEncoder().encode(identifier), as: UTF8.self)
        let json = #"{"persistentIdentifier":\#(encodedIdentifier),"name":"x"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DefaultSnapshot.self, from: Data(json.utf8))
        }
    }

    @Test func aSnapshotEncodesEachValueUnderItsPropertysName() throws {
        let context = ModelContext(try makeInMemoryContainer(SnapshotVoyage.self))
        let voyage = makeVoyage(in: context)
        let object = try #require(
            try JSONSerialization.jsonObject(with: try encoded([snapshot(of: voyage)])) as? [[String: Any]]
        ).first
        let keys = Set(try #require(object).keys)
        #expect(
            keys == [
                "persistentIdentifier", "name", "notes", "kind", "previousKind", "route", "departure", "ticket", "tags",
                "rating", "budget", "stamp", "ports", "cabin",
            ])
        #expect(object?["name"] as? String == "Lisbon")
        #expect(object?["kind"] as? String == "cruise")
        #expect(object?["rating"] is NSNull)
    }
}
