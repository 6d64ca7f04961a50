import Foundation
import SwiftData
import Testing

/// A configuration of a store that only exists to be refused or validated.
struct RefusedStoreConfiguration: DataStoreConfiguration {
    typealias Store = RefusedStore
    var name: String
    var schema: Schema?
    var isValid = true

    struct Invalid: Error {}

    func validate() throws {
        if !isValid { throw Invalid() }
    }
}

final class RefusedStore: DataStore {
    typealias Configuration = RefusedStoreConfiguration
    typealias Snapshot = DefaultSnapshot
    let configuration: RefusedStoreConfiguration
    let identifier = "refused"
    let schema = Schema()

    init(_ configuration: RefusedStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: [])
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        DataStoreSaveChangesResult(for: identifier)
    }
}

/// `ModelContainer(for:configurations:)` with configurations of any store type.
@Suite struct DataStoreContainerTests {
    @Test func modelConfigurationsGivenAsAnyStoreOpenSwiftDatasStore() throws {
        let directory = try TemporaryDirectory()
        let configurations: [any DataStoreConfiguration] = [ModelConfiguration(url: directory.store())]
        let container = try ModelContainer(for: Schema([Trip.self]), configurations: configurations)
        let context = ModelContext(container)
        context.insert(Trip(name: "Lisbon", destination: "Portugal"))
        try context.save()
        #expect(container.configurations.map(\.url) == [directory.store()])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)

        let variadic = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true) as any DataStoreConfiguration
        )
        #expect(variadic.configurations.first?.isStoredInMemoryOnly == true)
    }

    @Test func aCustomStoresConfigurationOpensItsStore() throws {
        let container = try ModelContainer(
            for: Schema([Trip.self]), configurations: [RefusedStoreConfiguration(name: "refused")])
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Trip>()).isEmpty)
        // This store saves without giving inserted models permanent identifiers: the save says so.
        context.insert(Trip(name: "Lisbon", destination: "Portugal"))
        let error = #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(error == .modelValidationFailure)
        #expect(error?.description.contains("'refused'") == true)
    }

    @Test func everyConfigurationIsValidatedFirst() throws {
        #expect(throws: RefusedStoreConfiguration.Invalid.self) {
            try ModelContainer(
                for: Trip.self, configurations: RefusedStoreConfiguration(name: "refused", isValid: false))
        }
        #expect(throws: SwiftDataError.configurationFileNameContainsInvalidCharacters) {
            try ModelContainer(
                for: Schema([Trip.self]), configurations: [ModelConfiguration("a/b", isStoredInMemoryOnly: true)])
        }
    }
}
