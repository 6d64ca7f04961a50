import Foundation
import SwiftData
import Testing

@Model
class PGVehicle {
    var name: String
    var wheels: Int

    init(name: String, wheels: Int) {
        self.name = name
        self.wheels = wheels
    }
}

@available(iOS 26, *)
@Model
class PGTruck: PGVehicle {
    var payload: Int
    var plate: String?

    init(name: String, payload: Int, plate: String?) {
        self.payload = payload
        self.plate = plate
        super.init(name: name, wheels: 6)
    }
}

@available(iOS 26, *)
@Model
final class PGBus: PGVehicle {
    var seats: Int

    init(name: String, seats: Int) {
        self.seats = seats
        super.init(name: name, wheels: 4)
    }
}

@Model
final class PGFleet {
    var name: String
    @Relationship(inverse: nil) var vehicles: [PGVehicle] = []

    init(name: String) {
        self.name = name
    }
}

/// Models of a class hierarchy in one store: each read back as its own class, fetched through any class of it.
@Suite struct StoreInheritanceTests {
    private func seeded(_ store: TestedStore) throws -> (location: URL, container: ModelContainer) {
        let location = try store.makeLocation()
        let container = try store.container(PGVehicle.self, PGTruck.self, PGBus.self, PGFleet.self, at: location)
        let context = ModelContext(container)
        let fleet = PGFleet(name: "depot")
        context.insert(fleet)
        fleet.vehicles = [
            PGVehicle(name: "bike", wheels: 2),
            PGTruck(name: "hauler", payload: 20, plate: "AB-1"),
            PGTruck(name: "pickup", payload: 2, plate: nil),
            PGBus(name: "shuttle", seats: 30),
        ]
        try context.save()
        return (location, container)
    }

    @Test(arguments: TestedStore.available)
    func aFetchOfTheBaseReturnsEveryModelAsItsOwnClass(store: TestedStore) throws {
        let (location, _) = try seeded(store)
        let reopened = try store.container(PGVehicle.self, PGTruck.self, PGBus.self, PGFleet.self, at: location)
        let context = ModelContext(reopened)
        let all = try context.fetch(FetchDescriptor<PGVehicle>(sortBy: [SortDescriptor(\.name)]))
        #expect(all.map(\.name) == ["bike", "hauler", "pickup", "shuttle"])
        #expect(all.map { String(describing: type(of: $0)) } == ["PGVehicle", "PGTruck", "PGTruck", "PGBus"])
        let hauler = try #require(all[1] as? PGTruck)
        #expect(hauler.payload == 20)
        #expect(hauler.plate == "AB-1")
        #expect(hauler.wheels == 6)
        #expect(hauler.persistentModelID.entityName == "PGTruck")
        #expect((all[3] as? PGBus)?.seats == 30)
        let identifiers = try context.fetchIdentifiers(FetchDescriptor<PGVehicle>(sortBy: [SortDescriptor(\.name)]))
        #expect(identifiers == all.map(\.persistentModelID))
        #expect(identifiers.map(\.entityName) == ["PGVehicle", "PGTruck", "PGTruck", "PGBus"])
        // A relationship typed to the base holds models of every class.
        let fleet = try #require(try context.fetch(FetchDescriptor<PGFleet>()).first)
        #expect(fleet.vehicles.map(\.name).sorted() == ["bike", "hauler", "pickup", "shuttle"])
        #expect(fleet.vehicles.filter { $0 is PGTruck }.count == 2)
    }

    @Test(arguments: TestedStore.available)
    func aFetchOfASubclassReturnsOnlyItsModels(store: TestedStore) throws {
        let context = ModelContext(try seeded(store).container)
        #expect(
            try context.fetch(FetchDescriptor<PGTruck>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
                "hauler", "pickup",
            ])
        #expect(
            try context.fetch(FetchDescriptor<PGTruck>(predicate: #Predicate { $0.payload > 5 })).map(\.name) == [
                "hauler"
            ])
        #expect(
            try context.fetch(FetchDescriptor<PGTruck>(predicate: #Predicate { $0.plate == nil })).map(\.name) == [
                "pickup"
            ])
        #expect(try context.fetch(FetchDescriptor<PGBus>()).map(\.name) == ["shuttle"])
        #expect(try context.fetchCount(FetchDescriptor<PGTruck>()) == 2)
        #expect(try context.fetchCount(FetchDescriptor<PGVehicle>(predicate: #Predicate { $0.wheels > 2 })) == 3)
        let onlyTrucks = try context.fetch(FetchDescriptor<PGVehicle>(predicate: #Predicate { $0 is PGTruck }))
        #expect(onlyTrucks.map(\.name).sorted() == ["hauler", "pickup"])
    }

    @Test(arguments: TestedStore.available)
    func changesAndDeletionsOfSubclassModelsPersist(store: TestedStore) throws {
        let (location, container) = try seeded(store)
        let context = ModelContext(container)
        let pickup = try #require(
            try context.fetch(FetchDescriptor<PGTruck>(predicate: #Predicate { $0.payload < 5 })).first)
        pickup.payload = 3
        pickup.name = "van"
        try context.save()
        try context.delete(model: PGVehicle.self, where: #Predicate { $0.wheels == 4 })
        try context.delete(model: PGVehicle.self, includeSubclasses: false)
        try context.save()

        let fresh = ModelContext(
            try store.container(PGVehicle.self, PGTruck.self, PGBus.self, PGFleet.self, at: location))
        let all = try fresh.fetch(FetchDescriptor<PGVehicle>(sortBy: [SortDescriptor(\.name)]))
        #expect(all.map(\.name) == ["hauler", "van"])
        #expect((all[1] as? PGTruck)?.payload == 3)
        #expect(try fresh.fetch(FetchDescriptor<PGFleet>()).first?.vehicles.count == 2)
    }
}
