// The shape of Xcode's "App" template with SwiftData storage, without its SwiftUI views: a model with a timestamp
// and a shared container made from a schema and one configuration.
import Foundation
import SwiftData
import Testing

@Model
final class Item {
    var timestamp: Date

    init(timestamp: Date) {
        self.timestamp = timestamp
    }
}

/// The template's `sharedModelContainer`, kept in memory so each call is independent.
func makeTemplateContainer() -> ModelContainer {
    let schema = Schema([
        Item.self
    ])
    let modelConfiguration = ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)

    do {
        return try ModelContainer(for: schema, configurations: [modelConfiguration])
    } catch {
        fatalError("Could not create ModelContainer: \(error)")
    }
}

@Suite struct XcodeTemplateTests {
    @Test func theTemplateContainerStoresItems() throws {
        let container = makeTemplateContainer()
        let context = ModelContext(container)
        let now = Date(timeIntervalSinceReferenceDate: 1_000)
        context.insert(Item(timestamp: now))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Item>()).map(\.timestamp) == [now])
        #expect(container.migrationPlan == nil)
        #expect(container.configurations.map(\.name) == ["default"])
        #expect(container.configurations.first?.isStoredInMemoryOnly == true)
    }
}
