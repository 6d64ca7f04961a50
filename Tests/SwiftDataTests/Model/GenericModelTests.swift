import Foundation
import Testing

@testable import SwiftData

/// A generic model class: its accessors use key path literals, as a generic class has no static stored properties.
@Model
final class Labelled<Label: Codable & Hashable> {
    var label: Label

    init(label: Label) { self.label = label }
}

@Suite struct GenericModelTests {
    @Test func aGenericModelReadsAndWritesItsProperties() {
        let model = Labelled(label: "first")
        #expect(model.label == "first")
        model.label = "second"
        #expect(model.label == "second")
    }
}

@Suite struct GenericModelLookupTests {
    /// Each read of a generic model's property makes a new key path object; the entity must not remember them all.
    @Test func readingAGenericModelDoesNotGrowTheKeyPathTable() {
        let model = Labelled(label: 1)
        let entity = Schema.Entity.of(Labelled<Int>.self)
        var total = 0
        for _ in 0..<50 { total += model.label }
        let before = entity.keyPathTablePublications
        for _ in 0..<500 { total += model.label }
        #expect(total == 550)
        #expect(entity.keyPathTablePublications == before)
    }
}
