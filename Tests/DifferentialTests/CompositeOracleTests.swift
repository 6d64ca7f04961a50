import Foundation
import SwiftData
import Testing

/// A composite attribute with a nested structure, an optional leaf and a raw-value enum.
struct Address: Codable, Equatable {
    var street: String
    var postcode: Int
    var location: Coordinates
    var floor: Int?
    var zone: Zone
    var opened: Date

    enum Zone: String, Codable, CaseIterable { case north, south, harbour }

    /// Computed from stored fields: predicates on it must give Swift's answer, not the stored field's.
    var upperFloor: Int { (floor ?? 0) + 1 }
    /// Half a second after the stored date: close enough to look the same in a date's description.
    var openedLater: Date { opened.addingTimeInterval(0.5) }
}

struct Coordinates: Codable, Equatable {
    var latitude: Double
    var longitude: Double

    /// The same fields, swapped: a key path through it must not be taken for the stored ones.
    var transposed: Coordinates { Coordinates(latitude: longitude, longitude: latitude) }
}

/// An optional composite attribute.
struct Contact: Codable, Equatable {
    var phone: String?
    var rank: Int
}

@Model
final class Venue {
    var name: String
    var address: Address
    var contact: Contact?

    init(name: String, address: Address, contact: Contact?) {
        self.name = name
        self.address = address
        self.contact = contact
    }
}

/// Predicates that reach into composite attributes: stored fields run in SQL, computed ones in memory, and either
/// way a fetch returns what `evaluate` selects.
@Suite struct CompositeOracleTests {
    /// A random venue population in a fresh in-memory container.
    func population(seed: UInt64, count: Int = 80) throws -> ModelContainer {
        var random = SeededRandom(seed: seed)
        let container = try ModelContainer(
            for: Venue.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        for _ in 0..<count {
            let address = Address(
                street: random.pick(tricky),
                postcode: Int.random(in: -3...12, using: &random),
                location: Coordinates(
                    latitude: Double(Int.random(in: -8...8, using: &random)) / 2,
                    longitude: Double(Int.random(in: -8...8, using: &random)) / 2
                ),
                floor: random.chance(0.3) ? nil : Int.random(in: 0...4, using: &random),
                zone: random.pick(Address.Zone.allCases),
                opened: Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...6, using: &random)))
            )
            let contact =
                random.chance(0.3)
                ? nil
                : Contact(
                    phone: random.chance(0.4) ? nil : random.pick(tricky), rank: Int.random(in: 0...5, using: &random))
            context.insert(Venue(name: random.pick(tricky), address: address, contact: contact))
        }
        try context.save()
        return container
    }

    /// Predicates on stored fields, with values drawn from the same ranges as the data.
    func storedFieldPredicates(_ random: inout SeededRandom) -> [(String, Predicate<Venue>)] {
        let street = random.pick(tricky)
        let postcode = Int.random(in: -3...12, using: &random)
        let latitude = Double(Int.random(in: -8...8, using: &random)) / 2
        let floor = Int.random(in: 0...4, using: &random)
        let zone = random.pick(Address.Zone.allCases)
        let phone = random.pick(tricky)
        let rank = Int.random(in: 0...5, using: &random)
        let opened = Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...6, using: &random)))
        return [
            ("opened ==", #Predicate { $0.address.opened == opened }),
            ("opened >", #Predicate { $0.address.opened > opened }),
            ("street ==", #Predicate { $0.address.street == street }),
            ("street <", #Predicate { $0.address.street < street }),
            ("street contains", #Predicate { $0.address.street.contains(street) }),
            ("postcode >", #Predicate { $0.address.postcode > postcode }),
            ("latitude <=", #Predicate { $0.address.location.latitude <= latitude }),
            (
                "lat and lon",
                #Predicate { $0.address.location.latitude > 0 && $0.address.location.longitude < latitude }
            ),
            ("floor ==", #Predicate { $0.address.floor == floor }),
            ("floor nil", #Predicate { $0.address.floor == nil }),
            ("floor ?? >", #Predicate { ($0.address.floor ?? -1) > floor }),
            ("zone ==", #Predicate { $0.address.zone == zone }),
            ("zone raw", #Predicate { $0.address.zone.rawValue == "south" }),
            ("contact nil", #Predicate { $0.contact == nil }),
            ("contact rank", #Predicate { $0.contact?.rank == rank }),
            ("contact rank ?? ", #Predicate { ($0.contact?.rank ?? 0) >= rank }),
            ("contact phone", #Predicate { $0.contact?.phone == phone }),
            ("contact phone nil", #Predicate { $0.contact?.phone == nil }),
            ("mixed", #Predicate { $0.name == street || ($0.address.postcode < postcode && $0.contact != nil) }),
            ("not", #Predicate { !($0.address.location.longitude == latitude) }),
        ]
    }

    /// Predicates through computed properties of the structures.
    func computedPredicates(_ random: inout SeededRandom) -> [(String, Predicate<Venue>)] {
        let latitude = Double(Int.random(in: -8...8, using: &random)) / 2
        let floor = Int.random(in: 0...5, using: &random)
        let opened = Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...6, using: &random)))
        return [
            ("opened later ==", #Predicate { $0.address.openedLater == opened }),
            ("opened later >", #Predicate { $0.address.openedLater > opened }),
            ("transposed latitude", #Predicate { $0.address.location.transposed.latitude < latitude }),
            ("transposed longitude", #Predicate { $0.address.location.transposed.longitude == latitude }),
            ("upper floor", #Predicate { $0.address.upperFloor > floor }),
        ]
    }

    @Test(arguments: differentialSeeds)
    func fetchesThroughCompositeFieldsMatchSwift(seed: UInt64) throws {
        let container = try population(seed: seed)
        let context = ModelContext(container)
        let everyone = try context.fetch(FetchDescriptor<Venue>())
        var random = SeededRandom(seed: seed &+ 5)
        let predicates = storedFieldPredicates(&random) + computedPredicates(&random)
        for (name, predicate) in predicates {
            let expected = try everyone.filter { try predicate.evaluate($0) }.map(\.persistentModelID)
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.persistentModelID)
            #expect(fetched == expected, "seed \(seed), \(name)")
            #expect(
                try context.fetchCount(FetchDescriptor(predicate: predicate)) == expected.count, "seed \(seed), \(name)"
            )
        }
    }

    @Test(arguments: differentialSeeds)
    func storedFieldsRunInSQLAndComputedOnesDoNot(seed: UInt64) throws {
        let context = ModelContext(try population(seed: seed, count: 5))
        var random = SeededRandom(seed: seed &+ 5)
        for (name, predicate) in storedFieldPredicates(&random) {
            var strict = FetchDescriptor(predicate: predicate)
            strict.allowsInMemoryEvaluation = false
            #expect(throws: Never.self, "seed \(seed), \(name)") { try context.fetch(strict) }
        }
        for (name, predicate) in computedPredicates(&random) {
            var strict = FetchDescriptor(predicate: predicate)
            strict.allowsInMemoryEvaluation = false
            #expect(throws: SwiftDataError.self, "seed \(seed), \(name)") { try context.fetch(strict) }
        }
    }
}
