import Foundation
import SwiftData
import Testing

@Model
final class Photo2 {
    var title: String
    @Attribute(.externalStorage) var image: Data?

    init(title: String, image: Data?) {
        self.title = title
        self.image = image
    }
}

@Suite struct ExternalStorageTests {
    let large = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    func externalFiles(_ directory: TemporaryDirectory) -> [String] {
        let folder = directory.url.appendingPathComponent(".test_SUPPORT/_EXTERNAL_DATA")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func largeValuesLiveInFilesAndSmallOnesInline() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Photo2.self, at: directory.store()))
            context.insert(Photo2(title: "big", image: large))
            context.insert(Photo2(title: "small", image: Data([1, 2, 3])))
            try context.save()
        }
        #expect(externalFiles(directory).count == 1)
        let stored = try sqliteRows(directory.store(), "SELECT title, typeof(image) FROM Photo2 ORDER BY _pk")
        #expect(stored == ["big|text", "small|blob"])
        let context = ModelContext(try makeContainer(Photo2.self, at: directory.store()))
        let photos = try context.fetch(FetchDescriptor<Photo2>(sortBy: [SortDescriptor(\.title)]))
        #expect(photos.map(\.image) == [large, Data([1, 2, 3])])
    }

    @Test func replacedAndDeletedValuesLoseTheirFilesOnlyWhenTheSaveCommits() throws {
        let directory = try TemporaryDirectory()
        let context = ModelContext(try makeContainer(Photo2.self, at: directory.store()))
        let photo = Photo2(title: "big", image: large)
        context.insert(photo)
        try context.save()
        let first = externalFiles(directory)
        photo.image = large + Data([9])
        #expect(externalFiles(directory) == first)
        try context.save()
        let second = externalFiles(directory)
        #expect(second.count == 1 && second != first)
        context.rollback()
        photo.image = nil
        try context.save()
        #expect(externalFiles(directory).isEmpty)
        photo.image = large
        try context.save()
        #expect(externalFiles(directory).count == 1)
        context.delete(photo)
        try context.save()
        #expect(externalFiles(directory).isEmpty)
    }

    @Test func aFailedSaveKeepsTheOldFileAndRemovesTheNewOne() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        do {
            let context = ModelContext(try makeContainer(Photo2.self, at: url))
            context.insert(Photo2(title: "kept", image: large))
            try context.save()
        }
        let before = externalFiles(directory)
        try runSQLite(url, "CREATE TRIGGER refuse BEFORE UPDATE ON Photo2 BEGIN SELECT RAISE(ABORT, 'refused'); END;")
        let context = ModelContext(try makeContainer(Photo2.self, at: url))
        let photo = try #require(try context.fetch(FetchDescriptor<Photo2>()).first)
        photo.image = large + large
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        #expect(externalFiles(directory) == before)
        #expect(
            try ModelContext(try makeContainer(Photo2.self, at: url)).fetch(FetchDescriptor<Photo2>()).first?.image
                == large)
    }

    @Test func eraseRemovesTheFilesOfTheRowsItDeletes() throws {
        let directory = try TemporaryDirectory()
        let container = try makeContainer(Photo2.self, at: directory.store())
        let context = ModelContext(container)
        context.insert(Photo2(title: "big", image: large))
        context.insert(Photo2(title: "bigger", image: large + large))
        try context.save()
        #expect(externalFiles(directory).count == 2)
        try container.erase()
        #expect(externalFiles(directory).isEmpty)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Photo2>()) == 0)
    }

    @Test func filesNoRowRefersToAreRemovedWhenTheStoreOpens() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Photo2.self, at: directory.store()))
            context.insert(Photo2(title: "kept", image: large))
            try context.save()
        }
        let folder = directory.url.appendingPathComponent(".test_SUPPORT/_EXTERNAL_DATA")
        try Data([1]).write(to: folder.appendingPathComponent("orphan"))
        try Data([1]).write(to: folder.appendingPathComponent("half-written.tmp"))
        #expect(externalFiles(directory).count == 3)
        _ = try makeContainer(Photo2.self, at: directory.store())
        #expect(externalFiles(directory).count == 1)
    }
}

/// The same entity before and after its property lost `.externalStorage` in the code, with no migration.
enum ExternalOptionVersions {
    @Model
    final class Clip {
        @Attribute(.externalStorage) var bytes: Data
        init(bytes: Data) { self.bytes = bytes }
    }

    enum Later {
        @Model
        final class Clip {
            var bytes: Data
            init(bytes: Data) { self.bytes = bytes }
        }
    }
}

@Suite struct ExternalFilesOfChangedCodeTests {
    /// Opening a store never removes a file a row refers to, even when the code no longer declares the property
    /// `.externalStorage`.
    @Test func aFileARowRefersToStaysWhenTheCodeDropsTheOption() throws {
        let directory = try TemporaryDirectory()
        let url = directory.store()
        let context = ModelContext(try makeContainer(ExternalOptionVersions.Clip.self, at: url))
        context.insert(ExternalOptionVersions.Clip(bytes: Data(repeating: 7, count: 300 * 1024)))
        try context.save()
        let files = directory.url.appendingPathComponent(".test_SUPPORT/_EXTERNAL_DATA")
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).count == 1)

        _ = try makeContainer(ExternalOptionVersions.Later.Clip.self, at: url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).count == 1)
        // The code that declares the option again reads the value.
        let again = ModelContext(try makeContainer(ExternalOptionVersions.Clip.self, at: url))
        #expect(try again.fetch(FetchDescriptor<ExternalOptionVersions.Clip>()).first?.bytes.count == 300 * 1024)
    }
}
