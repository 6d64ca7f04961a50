import Foundation
import SwiftData
import Testing

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
