import Foundation
import Testing

@testable import SwiftData

/// A generic model class: it has no static stored properties, so its accessors read their key paths from a cache.
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
    /// Reading a generic model's property makes its key path once, not on every access.
    @Test func readingAGenericModelMakesItsKeyPathOnce() {
        let model = Labelled(label: 1.5)
        var total = model.label
        let before = GenericKeyPathCache.count(for: Labelled<Double>.self)
        for _ in 0..<500 {
            total += model.label
            model.label = 1.5
        }
        #expect(total == 1.5 * 501)
        #expect(GenericKeyPathCache.count(for: Labelled<Double>.self) == before)
        func labelKeyPath() -> KeyPath<Labelled<Double>, Double> {
            _swiftDataKeyPath(Labelled<Double>.self, "label") { \.label }
        }
        #expect(labelKeyPath() === labelKeyPath())
    }

    /// The entity must not remember every key path object it is asked about.
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
