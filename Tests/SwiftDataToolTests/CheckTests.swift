import Foundation
import SwiftData
import SwiftDataTool
import Testing

@Suite struct CheckTests {
    @Test func aHealthyStoreChecksHealthy() throws {
        let store = try OutingStore()
        #expect(
            runTool("check", store.url.path).output == """
                integrity: ok
                schema: ok
                relationships: ok
                external data: ok
                healthy

                """)
    }

    /// A store another program damaged: a row deleted under a relationship, a link to nothing, an external file
    /// gone, a stray file, a column dropped.
    @Test func aDamagedStoreChecksUnhealthyAndSaysWhy() throws {
        let store = try OutingStore()
        let files = try FileManager.default.contentsOfDirectory(atPath: store.externalDirectoryPath).sorted()
        #expect(files.count == 2)
        try FileManager.default.removeItem(atPath: store.externalDirectoryPath + "/" + files[0])
        try Data("stray".utf8).write(to: URL(fileURLWithPath: store.externalDirectoryPath + "/stray"))
        let file = try StoreFile(url: store.url, writable: true)
        try file.execute("DELETE FROM \"Guide\"")
        try file.execute("INSERT INTO \"Companion_outings\" (owner, target) VALUES (1, 99)")
        try file.execute("ALTER TABLE \"Companion\" DROP COLUMN \"name\"")

        let result = runTool("check", store.url.path, status: 1)
        #expect(
            result.output == """
                integrity: ok
                schema: FAILED
                relationships: FAILED
                external data: FAILED
                problem: schema: column Companion.name is missing
                problem: relationships: 1 link(s) of Companion.outings in Companion_outings refer to a row that does not exist
                problem: relationships: 1 row(s) of Outing.guide refer to a Guide that does not exist
                problem: external data: \(files[0]) is referred to but missing
                warning: external data: stray is referred to by no row
                unhealthy: 4 problem(s)

                """)
    }
}

extension OutingStore {
    var externalDirectoryPath: String { directory.appendingPathComponent(".outings_SUPPORT/_EXTERNAL_DATA").path }
}
