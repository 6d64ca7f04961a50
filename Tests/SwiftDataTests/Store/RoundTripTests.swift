import Foundation
import SwiftData
import Testing

enum Mood: String, Codable, CaseIterable {
    case calm, busy
}

enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case none
}

struct Address: Codable, Equatable {
    var street: String
    var city: String
    var zip: Int?
}

@Model
final class EveryType {
    var text: String
    var flag: Bool
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var decimal: Decimal
    var date: Date
    var data: Data
    var url: URL
    var uuid: UUID
    var mood: Mood
    var shape: Shape
    var address: Address
    var list: [String]
    var numbers: Set<Int>
    var scores: [String: Double]
    var optionalText: String?
    var optionalInt: Int?
    var optionalDate: Date?
    var optionalMood: Mood?
    var optionalAddress: Address?

    init(_ seed: Int) {
        text = seed == 0 ? "" : "héllo \"quoted\" 'single' 🚀 \(seed) 日本語 e\u{301}"
        flag = seed % 2 == 0
        int = seed == 0 ? Int.min : Int.max
        int8 = seed == 0 ? Int8.min : Int8.max
        int16 = seed == 0 ? Int16.min : Int16.max
        int32 = seed == 0 ? Int32.min : Int32.max
        int64 = seed == 0 ? Int64.min : Int64.max
        uint = seed == 0 ? UInt.min : UInt.max
        uint8 = seed == 0 ? UInt8.min : UInt8.max
        uint16 = seed == 0 ? UInt16.min : UInt16.max
        uint32 = seed == 0 ? UInt32.min : UInt32.max
        uint64 = seed == 0 ? UInt64.min : UInt64.max
        double = seed == 0 ? -Double.greatestFiniteMagnitude : 0.1 + 0.2
        float = seed == 0 ? Float.leastNonzeroMagnitude : 3.14159
        decimal =
            seed == 0
            ? Decimal(string: "-0.000000000000000000000000000001")! : Decimal(string: "12345678901234567890.123456789")!
        date = Date(timeIntervalSinceReferenceDate: seed == 0 ? -1e9 : 123_456_789.123_456_7)
        data = seed == 0 ? Data() : Data([0, 1, 2, 255, 0])
        url = URL(string: seed == 0 ? "file:///tmp/a%20b.txt" : "https://example.com/path?q=1&r=ä#frag")!
        uuid = UUID()
        mood = seed == 0 ? .calm : .busy
        shape = seed == 0 ? .circle(radius: 2.5) : .rectangle(width: 1, height: 2)
        address = Address(street: "Mannerheimintie \(seed)", city: "Helsinki", zip: seed == 0 ? nil : 100)
        list = seed == 0 ? [] : ["a", "b", "a"]
        numbers = seed == 0 ? [] : [3, 1, 2]
        scores = seed == 0 ? [:] : ["x": 1.5, "y": -2]
        optionalText = seed == 0 ? nil : "present"
        optionalInt = seed == 0 ? nil : 0
        optionalDate = seed == 0 ? nil : Date(timeIntervalSinceReferenceDate: 42.000_001)
        optionalMood = seed == 0 ? nil : .calm
        optionalAddress = seed == 0 ? nil : Address(street: "", city: "Turku", zip: 20100)
    }
}

/// The values of an `EveryType`, for comparing a saved model with the one read back.
struct EveryTypeSnapshot: Equatable {
    let values: [String]

    init(_ model: EveryType) {
        values = [
            model.text, "\(model.flag)", "\(model.int)", "\(model.int8)", "\(model.int16)", "\(model.int32)",
            "\(model.int64)", "\(model.uint)", "\(model.uint8)", "\(model.uint16)", "\(model.uint32)",
            "\(model.uint64)", "\(model.double.bitPattern)", "\(model.float.bitPattern)", "\(model.decimal)",
            "\(model.date.timeIntervalSinceReferenceDate.bitPattern)", "\(model.data.map { $0 })",
            model.url.absoluteString, model.uuid.uuidString, model.mood.rawValue, "\(model.shape)", "\(model.address)",
            "\(model.list)", "\(model.numbers.sorted())", "\(model.scores.sorted { $0.key < $1.key })",
            "\(String(describing: model.optionalText))", "\(String(describing: model.optionalInt))",
            "\(String(describing: model.optionalDate?.timeIntervalSinceReferenceDate.bitPattern))",
            "\(String(describing: model.optionalMood))", "\(String(describing: model.optionalAddress))",
        ]
    }
}

@Suite struct RoundTripTests {
    @Test(arguments: [0, 1])
    func everyTypeSurvivesSaveAndReopen(seed: Int) throws {
        let directory = try TemporaryDirectory()
        let original = EveryType(seed)
        let expected = EveryTypeSnapshot(original)
        do {
            let container = try makeContainer(EveryType.self, at: directory.store())
            let context = ModelContext(container)
            context.insert(original)
            try context.save()
        }
        let container = try makeContainer(EveryType.self, at: directory.store())
        let context = ModelContext(container)
        let fetched = try context.fetch(FetchDescriptor<EveryType>())
        #expect(fetched.count == 1)
        let model = try #require(fetched.first)
        #expect(model !== original)
        #expect(EveryTypeSnapshot(model) == expected)
        #expect(model.persistentModelID == original.persistentModelID)
    }

    @Test func enumPredicatesCompareRawValues() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(EveryType.self, at: directory.store())
        let context = ModelContext(container)
        context.insert(EveryType(1))
        try context.save()
        let busy = Mood.busy
        let calm = Mood.calm
        let moods = try context.fetch(FetchDescriptor<EveryType>(predicate: #Predicate { $0.mood == busy }))
        #expect(moods.count == 1)
        let none = try context.fetch(FetchDescriptor<EveryType>(predicate: #Predicate { $0.mood == calm }))
        #expect(none.isEmpty)
    }

    /// Text is bound and read by length, so a string with an embedded NUL (or made only of one) is stored whole
    /// rather than cut at the NUL; an empty string stays an empty string, not NULL.
    @Test func stringsWithEmbeddedNULSurviveReopening() throws {
        let directory = try TemporaryDirectory()
        let texts = ["before\0after", "\0", "\0é\0🙂", "", String(repeating: "long text ", count: 10)]
        do {
            let context = ModelContext(try makeContainer(Trip.self, at: directory.store()))
            for (index, text) in texts.enumerated() {
                context.insert(Trip(name: "\(index)", destination: text))
            }
            try context.save()
        }
        let context = ModelContext(try makeContainer(Trip.self, at: directory.store()))
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.destination) == texts)
    }
}
