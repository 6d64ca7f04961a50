import Foundation
import SwiftData
import Testing

/// `ModelContext.editingState`: the context's identity as data stores see it.
@Suite struct EditingStateTests {
    @Test func aContextKeepsOneEditingStateIdentifier() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let other = ModelContext(container)
        #expect(context.editingState.id == context.editingState.id)
        #expect(context.editingState.id != other.editingState.id)
    }

    @Test func theEditingStatesAuthorIsTheContexts() throws {
        let context = ModelContext(try makeInMemoryContainer(Trip.self))
        #expect(context.editingState.author == nil)
        context.author = "importer"
        #expect(context.editingState.author == "importer")
        context.editingState.author = "editor"
        #expect(context.author == "editor")
    }

    @Test func settingTheEditingStateAdoptsItsIdentifier() throws {
        let container = try makeInMemoryContainer(Trip.self)
        let context = ModelContext(container)
        let other = ModelContext(container)
        other.author = "sync"
        context.editingState = other.editingState
        #expect(context.editingState.id == other.editingState.id)
        #expect(context.author == "sync")
    }
}
