import Foundation
import SwiftData
import SwiftDataTool
import Testing

@Suite struct ExportImportTests {
    /// Every value, relationship and external file comes back exactly, read through the library.
    @Test func aStoreRoundTripsThroughAnExport() throws {
        let store = try OutingStore()
        let exported = store.path("outings.json")
        let copy = store.path("copy/outings.store")
        #expect(runTool("export", store.url.path, exported).output.hasPrefix("exported "))
        #expect(runTool("import", exported, copy).output.hasPrefix("imported "))
        #expect(runTool("check", copy).output.hasSuffix("healthy\n"))

        func read(_ url: URL) throws -> [Outing] {
            let context = ModelContext(
                try ModelContainer(for: Outing.self, configurations: ModelConfiguration(url: url)))
            return try context.fetch(FetchDescriptor<Outing>(sortBy: [SortDescriptor(\.title)]))
        }
        let originals = try read(store.url)
        let copies = try read(URL(fileURLWithPath: copy))
        #expect(copies.count == 2)
        for (original, copy) in zip(originals, copies) {
            #expect(copy.title == original.title)
            #expect(copy.isDone == original.isDone && copy.count == original.count)
            #expect(copy.smallest == .min && copy.largest == .max)
            #expect(copy.ratio == original.ratio)
            #expect(copy.negativeZero == 0 && copy.negativeZero.sign == original.negativeZero.sign)
            #expect(copy.infinite == -.infinity)
            #expect(copy.precision == original.precision)
            #expect(copy.price == original.price)
            #expect(copy.day == original.day)
            #expect(copy.bytes == original.bytes)
            #expect(copy.photo == original.photo && copy.photo.count == 200 * 1024)
            #expect(copy.link == original.link && copy.code == original.code)
            #expect(copy.weather == original.weather && copy.route == original.route && copy.place == original.place)
            #expect(copy.notes == original.notes && copy.missing == nil)
            #expect(copy.guide?.name == original.guide?.name)
            #expect(copy.companions.map(\.name).sorted() == original.companions.map(\.name).sorted())
            #expect(copy.persistentModelID.id == original.persistentModelID.id)
        }
        // The export of the copy is the export of the original.
        let again = store.path("again.json")
        runTool("export", copy, again)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: exported)))
    }

    @Test func importRefusesAnExistingStoreAndFilesItDidNotWrite() throws {
        let store = try OutingStore()
        let exported = store.path("outings.json")
        runTool("export", store.url.path, exported)
        #expect(runTool("import", exported, store.url.path, status: 1).errors.contains("exists already"))
        let junk = store.path("junk.json")
        try Data("{\"hello\": 1}".utf8).write(to: URL(fileURLWithPath: junk))
        #expect(
            runTool("import", junk, store.path("new.store"), status: 1).errors.contains(
                "is not a file 'swiftdata export' wrote"))
        #expect(!FileManager.default.fileExists(atPath: store.path("new.store")))
    }
}
