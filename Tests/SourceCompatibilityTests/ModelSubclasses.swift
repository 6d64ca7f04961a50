// A `@Model` subclass of a `@Model` class, marked `@available` as Apple's model inheritance requires, next to the
// schema questions code asks about it.
import Foundation
import SwiftData
import Testing

@Model
class Vehicle {
    var wheels: Int

    init(wheels: Int) {
        self.wheels = wheels
    }
}

@available(iOS 26, macOS 26, *)
@Model
final class Truck: Vehicle {
    var payload: Double

    init(wheels: Int, payload: Double) {
        self.payload = payload
        super.init(wheels: wheels)
    }
}

@Suite struct ModelSubclassTests {
    @Test func aSubclassInheritsItsSuperclassProperties() throws {
        let container = try ModelContainer(
            for: Vehicle.self, Truck.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Truck(wheels: 6, payload: 12.5))
        context.insert(Vehicle(wheels: 2))
        try context.save()

        let vehicles = try ModelContext(container).fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.wheels)]))
        #expect(vehicles.map(\.wheels) == [2, 6])
        #expect((vehicles.last as? Truck)?.payload == 12.5)

        let truck = try #require(container.schema.entity(for: Truck.self))
        #expect(truck.superentity?.name == "Vehicle")
        #expect(truck.inheritedProperties.map(\.name) == ["wheels"])
        #expect(Array(truck.inheritedPropertiesByName.keys) == ["wheels"])
        let vehicle = try #require(container.schema.entity(for: Vehicle.self))
        #expect(vehicle.inheritedProperties.isEmpty)

        let copy = Schema(vehicle, truck, version: Schema.Version(2, 0, 0))
        #expect(copy.entities.map(\.name) == ["Vehicle", "Truck"])
        #expect(copy.version == Schema.Version(2, 0, 0))
    }
}
