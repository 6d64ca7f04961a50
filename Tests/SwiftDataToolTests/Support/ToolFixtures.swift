import Foundation
import SwiftData
import SwiftDataTool
import Testing

enum Weather: String, Codable {
    case sunny, rainy
}

enum Route: Codable, Equatable {
    case walk(minutes: Int)
    case ride(line: String, stops: Int)
}

struct Place: Codable, Equatable {
    var city: String
    var zip: Int?
}

/// A model with a value of every kind a store keeps, for the export round trip.
@Model
final class Outing {
    @Attribute(.unique) var title: String
    var isDone: Bool
    var count: Int
    var smallest: Int64
    var largest: UInt64
    var ratio: Double
    var negativeZero: Double
    var infinite: Double
    var precision: Float
    var price: Decimal
    var day: Date
    var bytes: Data
    @Attribute(.externalStorage) var photo: Data
    var link: URL
    var code: UUID
    var weather: Weather
    var route: Route
    var place: Place
    var notes: [String]
    var missing: String?
    var guide: Guide?
    var companions: [Companion] = []

    init(title: String, seed: Int) {
        self.title = title
        isDone = seed % 2 == 0
        count = seed
        smallest = .min
        largest = .max
        ratio = 1.0 / 3.0
        negativeZero = -0.0
        infinite = -.infinity
        precision = 0.1
        price = Decimal(string: "12345.6789")!
        day = Date(timeIntervalSinceReferenceDate: 12_345.678_9)
        bytes = Data([0, 1, 2, 255])
        photo = Data(repeating: UInt8(seed % 251), count: 200 * 1024)
        link = URL(string: "https://example.com/a?b=c")!
        code = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        weather = seed % 2 == 0 ? .sunny : .rainy
        route = .ride(line: "7 \"express\"", stops: seed)
        place = Place(city: "Zürich e\u{301}", zip: seed % 2 == 0 ? nil : 8000)
        notes = ["a", "", "日本語"]
    }
}

@Model
final class Guide {
    var name: String
    @Relationship(inverse: \Outing.guide) var outings: [Outing] = []
    init(name: String) { self.name = name }
}

@Model
final class Companion {
    var name: String
    @Relationship(inverse: \Outing.companions) var outings: [Outing] = []
    init(name: String) { self.name = name }
}

/// A store with two outings, a guide of the first, and companions shared between them.
struct OutingStore {
    let directory: URL
    let url: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("outings.store")
        let context = ModelContext(try ModelContainer(for: Outing.self, configurations: ModelConfiguration(url: url)))
        let first = Outing(title: "Lake", seed: 1)
        let second = Outing(title: "Alps", seed: 2)
        context.insert(first)
        context.insert(second)
        let guide = Guide(name: "Ida")
        first.guide = guide
        let (ann, bo) = (Companion(name: "Ann"), Companion(name: "Bo"))
        first.companions = [ann, bo]
        second.companions = [bo]
        try context.save()
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// Runs the tool and expects it to end with the given status.
@discardableResult
func runTool(_ arguments: String..., status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation)
    -> SwiftDataTool.Result
{
    runTool(arguments, status: status, sourceLocation: sourceLocation)
}

/// Runs the tool with an argument list and expects it to end with the given status.
@discardableResult
func runTool(_ arguments: [String], status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation)
    -> SwiftDataTool.Result
{
    let result = SwiftDataTool.run(arguments)
    #expect(
        result.status == status, "swiftdata \(arguments.joined(separator: " ")): \(result.errors)",
        sourceLocation: sourceLocation)
    return result
}
