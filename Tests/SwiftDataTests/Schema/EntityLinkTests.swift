import Foundation
import Testing

@testable import SwiftData

/// The links between entities never close a loop, which would make every read of an entity's properties recurse
/// without end.
@Suite struct EntityLinkTests {
    @Test func adoptRefusesALinkThatClosesALoop() throws {
        let top = Schema.Entity("Top", properties: Schema.Attribute(name: "x", valueType: Int.self))
        let middle = Schema.Entity("Middle")
        let bottom = Schema.Entity("Bottom")
        _ = top.adopt(middle)
        _ = middle.adopt(bottom)

        // Only whether a link exists is checked before reading properties: rendering an entity of a loop in a
        // failure message would read its properties without end.
        _ = bottom.adopt(top)
        let closedLoop = top.superentity != nil
        try #require(!closedLoop, "the loop top → middle → bottom → top was linked")
        #expect(bottom.subentities.isEmpty)
        _ = top.adopt(top)
        let linkedToItself = top.superentity != nil
        try #require(!linkedToItself, "top was linked to itself")
        #expect(!top.subentities.contains { $0 === top })

        #expect(bottom.properties.map(\.name) == ["x"])
        #expect(bottom.superentity === middle)
        #expect(middle.superentity === top)
        #expect(!bottom.adopt(top))
        #expect(bottom.adopt(Schema.Entity("Below")))
    }
}
