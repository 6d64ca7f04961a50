import Foundation
import SwiftData
import Testing

@Model
final class StoreShelf {
    var name: String
    @Relationship(deleteRule: .nullify, inverse: \ShelfBox.shelf) var boxes: [ShelfBox] = []
    init(name: String) { self.name = name }
}

@Model
final class ShelfBox {
    var label: String
    var shelf: StoreShelf
    init(label: String, shelf: StoreShelf) {
        self.label = label
        self.shelf = shelf
    }
}

/// A non-optional to-one relationship whose target is deleted reads a deleted stand-in, never stops the program.
@Suite struct VanishedTargetTests {
    private func seeded() throws -> (ModelContainer, ModelContext, ShelfBox) {
        let container = try makeInMemoryContainer(StoreShelf.self, ShelfBox.self)
        let context = ModelContext(container)
        let shelf = StoreShelf(name: "Top")
        context.insert(shelf)
        let box = ShelfBox(label: "Tools", shelf: shelf)
        context.insert(box)
        try context.save()
        return (container, context, box)
    }

    @Test func deletingTheTargetInTheSameContextLeavesADeletedStandIn() throws {
        let (_, context, box) = try seeded()
        context.delete(box.shelf)
        try context.save()
        // Before: the getter stopped with "Could not cast value of type '()'".
        #expect(box.shelf.isDeleted)
        #expect(box.label == "Tools")
    }

    @Test func aRowWhoseLinkADeletionClearedReadsADeletedStandIn() throws {
        let (container, context, box) = try seeded()
        context.delete(box.shelf)
        try context.save()
        let fresh = ModelContext(container)
        let reread = try #require(try fresh.fetch(FetchDescriptor<ShelfBox>()).first)
        #expect(reread.shelf.isDeleted)
        #expect(reread.shelf.name == "")
    }

    @Test func aDeletionInAnotherContextLeavesADeletedStandIn() throws {
        let (container, context, box) = try seeded()
        #expect(box.shelf.name == "Top")
        let other = ModelContext(container)
        for shelf in try other.fetch(FetchDescriptor<StoreShelf>()) { other.delete(shelf) }
        try other.save()
        // The next fetch merges the other context's deletion into this one.
        _ = try context.fetchCount(FetchDescriptor<ShelfBox>())
        #expect(box.shelf.isDeleted)
    }
}
