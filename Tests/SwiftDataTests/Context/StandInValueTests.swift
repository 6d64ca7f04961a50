import Foundation
import Testing

@testable import SwiftData

/// Raw values, none of them empty, and not `CaseIterable`: no empty value.
enum BerthTide: String, Codable {
    case high, low
}

/// Integer raw values, none of them 0.
enum BerthSize: Int, Codable {
    case small = 3
    case large = 7
}

/// An enumeration with payloads, stored as JSON, which neither `[]` nor `{}` decodes to.
enum BerthMooring: Codable, Equatable {
    case buoy(depth: Double)
    case pier(name: String)
}

/// A light stored through `BerthLightTransformer`, whose JSON the empty data is not.
struct BerthLight: Codable, Equatable {
    var lumen: Int
    var color: String
    var blink: Bool?
}

final class BerthLightTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? BerthLight).flatMap { try? JSONEncoder().encode($0) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? JSONDecoder().decode(BerthLight.self, from: data)
    }
}

/// A flag that is not `Codable`, stored through `BerthFlagTransformer`, which reads no data as the plain flag and
/// refuses empty data.
final class BerthFlag {
    let pattern: String
    init(pattern: String) { self.pattern = pattern }
}

final class BerthFlagTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? BerthFlag).map { Data($0.pattern.utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return BerthFlag(pattern: "plain") }
        guard !data.isEmpty else { return nil }
        return BerthFlag(pattern: String(decoding: data, as: UTF8.self))
    }
}

/// A berth whose attributes have no empty value, each of a kind.
@Model
final class Berth {
    var name: String
    var tide: BerthTide
    var size: BerthSize
    var mooring: BerthMooring
    @Attribute(.transformable(by: BerthLightTransformer.self)) var light: BerthLight
    @Attribute(.transformable(by: BerthFlagTransformer.self)) var flag: BerthFlag
    @Relationship(deleteRule: .nullify, inverse: \BerthBoat.berth) var boats: [BerthBoat] = []

    init(name: String) {
        self.name = name
        self.tide = .low
        self.size = .large
        self.mooring = .pier(name: "east")
        self.light = BerthLight(lumen: 900, color: "red", blink: true)
        self.flag = BerthFlag(pattern: "stripes")
    }
}

/// A boat that is always at a berth: a non-optional to-one.
@Model
final class BerthBoat {
    var name: String
    var berth: Berth

    init(name: String, berth: Berth) {
        self.name = name
        self.berth = berth
    }
}

/// A dock with a colour that SwiftData cannot make (`Tint`, through `TintTransformer`, has no value for empty data).
@Model
final class TintedDock {
    var name: String
    @Attribute(.transformable(by: TintTransformer.self)) var tint: Tint
    @Relationship(deleteRule: .nullify, inverse: \TintedBoat.dock) var boats: [TintedBoat] = []

    init(name: String, tint: Tint) {
        self.name = name
        self.tint = tint
    }
}

@Model
final class TintedBoat {
    var name: String
    var dock: TintedDock

    init(name: String, dock: TintedDock) {
        self.name = name
        self.dock = dock
    }
}

/// What the stand-in of a gone target reads for attributes whose type has no empty value: a value SwiftData makes
/// of the type, never a stop of the program.
@Suite struct StandInValueTests {
    /// A boat at a berth, saved, and the context that saved them.
    func savedBoat(_ container: ModelContainer) throws -> (ModelContext, BerthBoat) {
        let context = ModelContext(container)
        let boat = BerthBoat(name: "Aava", berth: Berth(name: "B1"))
        context.insert(boat)
        try context.save()
        return (context, boat)
    }

    /// Deletes every berth through another context, which clears the boats' links in the store.
    func deleteBerthsElsewhere(_ container: ModelContainer) throws {
        let other = ModelContext(container)
        for berth in try other.fetch(FetchDescriptor<Berth>()) { other.delete(berth) }
        try other.save()
    }

    @Test func standInOfAGoneTargetReadsAValueOfEachTypeWithoutAnEmptyValue() throws {
        let container = try makeInMemoryContainer(Berth.self, BerthBoat.self)
        _ = try savedBoat(container)
        try deleteBerthsElsewhere(container)

        // Before: reading `tide` stopped the program: "Berth.tide cannot be read: its row is gone from the store".
        let boat = try #require(try ModelContext(container).fetch(FetchDescriptor<BerthBoat>()).first)
        let berth = boat.berth
        #expect(berth.isDeleted)
        #expect(berth.name == "")
        // The first declared case of an enumeration with raw values.
        #expect(berth.tide == .high)
        #expect(berth.size == .small)
        // A `Codable` value decoded from nothing: its first case, each field empty.
        #expect(berth.mooring == .buoy(depth: 0))
        #expect(berth.light == BerthLight(lumen: 0, color: "", blink: nil))
        // What the transformer gives for no data.
        #expect(berth.flag.pattern == "plain")
    }

    @Test func standInInTheContextThatHeldTheTargetReadsTheSameValues() throws {
        let container = try makeInMemoryContainer(Berth.self, BerthBoat.self)
        let (context, boat) = try savedBoat(container)
        context.delete(boat.berth)
        try context.save()

        #expect(boat.berth.isDeleted)
        #expect(boat.berth.tide == .high)
        #expect(boat.berth.mooring == .buoy(depth: 0))
    }

    @Test func standInOfATypeSwiftDataCannotMakeReadsTheValueOfAnotherRow() throws {
        let container = try makeInMemoryContainer(TintedDock.self, TintedBoat.self)
        let context = ModelContext(container)
        context.insert(TintedBoat(name: "Aava", dock: TintedDock(name: "D1", tint: Tint(hue: 40))))
        context.insert(TintedDock(name: "D2", tint: Tint(hue: 90)))
        try context.save()
        let other = ModelContext(container)
        for dock in try other.fetch(FetchDescriptor<TintedDock>(predicate: #Predicate { $0.name == "D1" })) {
            other.delete(dock)
        }
        try other.save()

        let boat = try #require(try ModelContext(container).fetch(FetchDescriptor<TintedBoat>()).first)
        #expect(boat.dock.isDeleted)
        #expect(boat.dock.name == "")
        #expect(boat.dock.tint.hue == 90)
    }

    @Test func standInOfATypeSwiftDataCannotMakeWithNoOtherRowStopsWithAMessage() async throws {
        await #expect(processExitsWith: .failure) {
            let container = try makeInMemoryContainer(TintedDock.self, TintedBoat.self)
            let context = ModelContext(container)
            let boat = TintedBoat(name: "Aava", dock: TintedDock(name: "D1", tint: Tint(hue: 40)))
            context.insert(boat)
            try context.save()
            context.delete(boat.dock)
            try context.save()
            _ = boat.dock.tint
        }
    }

    @Test func modelForTheIdentifierOfARowDeletedElsewhereReadsStandInValues() throws {
        let container = try makeInMemoryContainer(Berth.self, BerthBoat.self)
        let (_, boat) = try savedBoat(container)
        let identifier = boat.berth.persistentModelID
        try deleteBerthsElsewhere(container)

        // Before: reading `name` stopped the program: "Berth.name was read before it was given a value".
        let berth = try #require(ModelContext(container).model(for: identifier) as? Berth)
        #expect(berth.isDeleted)
        #expect(berth.name == "")
        #expect(berth.tide == .high)
        #expect(berth.boats.isEmpty)
    }

    @Test func madeValuesOfTypesWithoutAnEmptyValue() throws {
        let table: [(type: any Any.Type, description: String)] = [
            (BerthTide.self, "high"),
            (BerthSize.self, "small"),
            (BerthMooring.self, "buoy(depth: 0.0)"),
            (BerthLight.self, #"BerthLight(lumen: 0, color: "", blink: nil)"#),
            ([BerthLight].self, "[]"),
            ([String: BerthSize].self, "[:]"),
            (UUID.self, "00000000-0000-0000-0000-000000000000"),
        ]
        for (type, description) in table {
            let value = try #require(madeValue(of: type), "\(type)")
            #expect(String(describing: value) == description)
        }
    }

    @Test func typeWithReferencesAndNoCodingHasNoMadeValue() {
        #expect(madeValue(of: Tint.self) == nil)
    }
}

/// A type that holds itself in its first case: making its empty value must end with an error, not a stack overflow.
@Suite struct EmptyValueDepthTests {
    indirect enum Tree: Codable {
        case node(Tree, Tree)
        case leaf
    }

    @Test func aTypeThatHoldsItselfFirstHasNoEmptyValue() {
        #expect(throws: DecodingError.self) { try EmptyValueDecoder.value(of: Tree.self) }
    }

    @Test func ordinaryNestedValuesStillDecode() throws {
        struct Inner: Codable, Equatable { var count: Int; var names: [String] }
        struct Outer: Codable, Equatable { var inner: Inner; var title: String? }
        #expect(try EmptyValueDecoder.value(of: Outer.self) == Outer(inner: Inner(count: 0, names: []), title: nil))
    }
}
