// A model actor written by hand instead of with `@ModelActor`, and a second actor that shares its executor (and
// so its context), as code that splits one data layer into several actors does.
import Foundation
import SwiftData
import Testing

@Model
final class Reading {
    var value: Double

    init(value: Double) {
        self.value = value
    }
}

actor ReadingStore: ModelActor {
    nonisolated let modelContainer: ModelContainer
    nonisolated let modelExecutor: any ModelExecutor

    init(modelContainer: ModelContainer) {
        self.modelContainer = modelContainer
        let modelContext = ModelContext(modelContainer)
        self.modelExecutor = DefaultSerialModelExecutor(modelContext: modelContext)
    }

    func record(_ value: Double) throws {
        modelContext.insert(Reading(value: value))
        try modelContext.save()
    }
}

actor ReadingStatistics: ModelActor {
    nonisolated let modelContainer: ModelContainer
    nonisolated let modelExecutor: any ModelExecutor

    init(sharingWith store: ReadingStore) {
        self.modelContainer = store.modelContainer
        self.modelExecutor = store.modelExecutor
    }

    func total() throws -> Double {
        try modelContext.fetch(FetchDescriptor<Reading>()).reduce(0) { $0 + $1.value }
    }

    func sharesContext(with store: ReadingStore) -> Bool {
        modelContext === store.modelExecutor.modelContext
    }
}

@Suite struct ManualModelActorTests {
    @Test func actorsSharingAnExecutorShareOneContext() async throws {
        let container = try ModelContainer(
            for: Reading.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let store = ReadingStore(modelContainer: container)
        let statistics = ReadingStatistics(sharingWith: store)
        try await store.record(1.5)
        try await store.record(2.5)
        #expect(try await statistics.total() == 4)
        #expect(await statistics.sharesContext(with: store))
        // A model executor is an `Executor`, as on Apple platforms.
        let executor: any Executor = store.modelExecutor
        #expect(executor is DefaultSerialModelExecutor)
        let serial = try #require(store.modelExecutor as? DefaultSerialModelExecutor)
        #expect(serial.isSameExclusiveExecutionContext(other: serial))
        let other = DefaultSerialModelExecutor(modelContext: ModelContext(container))
        #expect(!serial.isSameExclusiveExecutionContext(other: other))
    }
}
