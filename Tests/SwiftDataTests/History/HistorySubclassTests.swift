import Foundation
import Testing

@testable import SwiftData

@Model
class HSVehicle {
    var name: String
    @Attribute(.preserveValueOnDeletion) var code: String

    init(name: String, code: String) {
        self.name = name
        self.code = code
    }
}

@available(iOS 26, *)
@Model
class HSTruck: HSVehicle {
    var payload: Int
    @Attribute(.preserveValueOnDeletion) var plate: String?

    init(name: String, code: String, payload: Int, plate: String?) {
        self.payload = payload
        self.plate = plate
        super.init(name: name, code: code)
    }
}

@available(iOS 26, *)
@Model
final class HSTipper: HSTruck {
    var tilt: Int

    init(name: String, code: String, tilt: Int) {
        self.tilt = tilt
        super.init(name: name, code: code, payload: 0, plate: nil)
    }
}

/// The changes of a subclass's models name inherited properties with key paths rooted at the subclass.
@Suite struct HistorySubclassTests {
    typealias Transaction = DefaultHistoryTransaction

    func lastTransaction(_ context: ModelContext) throws -> Transaction {
        try #require(try context.fetchHistory(HistoryDescriptor<Transaction>()).last)
    }

    func updates<M: PersistentModel>(_ transaction: Transaction, _: M.Type) -> [DefaultHistoryUpdate<M>] {
        transaction.changes.compactMap { if case .update(let c) = $0 { c as? DefaultHistoryUpdate<M> } else { nil } }
    }

    func deletes<M: PersistentModel>(_ transaction: Transaction, _: M.Type) -> [DefaultHistoryDelete<M>] {
        transaction.changes.compactMap { if case .delete(let c) = $0 { c as? DefaultHistoryDelete<M> } else { nil } }
    }

    func makeContainer(_ directory: TemporaryDirectory?) throws -> ModelContainer {
        guard let directory else { return try makeInMemoryContainer(HSVehicle.self, HSTruck.self, HSTipper.self) }
        return try SwiftDataTests.makeContainer(HSVehicle.self, HSTruck.self, HSTipper.self, at: directory.store())
    }

    @Test(arguments: [false, true])
    func aSubclassUpdateNamesItsInheritedAndOwnAttributes(onDisk: Bool) throws {
        let directory = onDisk ? try TemporaryDirectory() : nil
        let context = ModelContext(try makeContainer(directory))
        let truck = HSTruck(name: "a", code: "T1", payload: 1, plate: "AB-1")
        context.insert(truck)
        try context.save()

        truck.name = "b"
        try context.save()
        let inherited = try #require(updates(try lastTransaction(context), HSTruck.self).first)
        #expect(inherited.changedPersistentIdentifier == truck.persistentModelID)
        #expect(inherited.updatedAttributes.count == 1)
        #expect(inherited.containsAttribute(\.name))
        #expect(inherited.updatedAttributes.contains { $0 == \HSTruck.name })
        #expect(!inherited.containsAttribute(\.code))
        #expect(!inherited.containsAttribute(\.payload))

        truck.payload = 2
        try context.save()
        let own = try #require(updates(try lastTransaction(context), HSTruck.self).first)
        #expect(own.updatedAttributes.count == 1)
        #expect(own.containsAttribute(\.payload))
        #expect(!own.containsAttribute(\.name))
    }

    @Test(arguments: [false, true])
    func aSubclassTombstoneKeepsItsInheritedPreservedAttributes(onDisk: Bool) throws {
        let directory = onDisk ? try TemporaryDirectory() : nil
        let context = ModelContext(try makeContainer(directory))
        let truck = HSTruck(name: "a", code: "T1", payload: 1, plate: "AB-1")
        context.insert(truck)
        try context.save()
        context.delete(truck)
        try context.save()
        let deletion = try #require(deletes(try lastTransaction(context), HSTruck.self).first)
        #expect(deletion.changedPersistentIdentifier == truck.persistentModelID)
        #expect(deletion.tombstone[\.code] as? String == "T1")
        #expect(deletion.tombstone[\.plate] as? String == "AB-1")
        #expect(deletion.tombstone[\.name] == nil)
        // Inherited attributes come first, in declaration order.
        #expect(Array(deletion.tombstone).compactMap { $0 as? String } == ["T1", "AB-1"])
    }

    @Test func aSubclassTwoLevelsDownNamesEveryInheritedAttribute() throws {
        let context = ModelContext(try makeContainer(nil))
        let tipper = HSTipper(name: "a", code: "P1", tilt: 0)
        context.insert(tipper)
        try context.save()
        tipper.name = "b"
        tipper.payload = 3
        tipper.tilt = 30
        try context.save()
        let update = try #require(updates(try lastTransaction(context), HSTipper.self).first)
        #expect(update.updatedAttributes.count == 3)
        #expect(update.containsAttribute(\.name))
        #expect(update.containsAttribute(\.payload))
        #expect(update.containsAttribute(\.tilt))
        #expect(!update.containsAttribute(\.code))

        context.delete(tipper)
        try context.save()
        let deletion = try #require(deletes(try lastTransaction(context), HSTipper.self).first)
        #expect(deletion.tombstone[\.code] as? String == "P1")
        #expect(Array(deletion.tombstone).count == 1)
    }

    @Test func theBaseClassChangesKeepTheirOwnKeyPaths() throws {
        let context = ModelContext(try makeContainer(nil))
        let vehicle = HSVehicle(name: "a", code: "V1")
        context.insert(vehicle)
        try context.save()
        vehicle.name = "b"
        try context.save()
        let update = try #require(updates(try lastTransaction(context), HSVehicle.self).first)
        #expect(update.updatedAttributes.count == 1)
        #expect(update.containsAttribute(\HSVehicle.name))
        #expect(update.updatedAttributes.first.map { $0 == \HSVehicle.name } == true)
        context.delete(vehicle)
        try context.save()
        let deletion = try #require(deletes(try lastTransaction(context), HSVehicle.self).first)
        #expect(deletion.tombstone[\.code] as? String == "V1")
        // A base class's change is not a subclass's.
        #expect(deletes(try lastTransaction(context), HSTruck.self).isEmpty)
    }
}
