import Foundation
import SwiftData
import Testing

@Model
final class Appointment {
    let identifier: UUID
    var note: String

    init(identifier: UUID, note: String) {
        self.identifier = identifier
        self.note = note
    }
}

@Model
final class Pass {
    var number: Int
    let holder: Holder?

    init(number: Int, holder: Holder?) {
        self.number = number
        self.holder = holder
    }
}

/// Persisted `let` properties: read back where a fetch can, refused where it cannot.
@Suite struct ConstantPropertyTests {
    /// A fetch with `propertiesToFetch` reads a `let` anyway: it is read back only while its model is made.
    @Test func aPartialFetchReadsALetProperty() throws {
        let container = try makeInMemoryContainer(Appointment.self)
        let identifier = UUID()
        let setup = ModelContext(container)
        setup.insert(Appointment(identifier: identifier, note: "first"))
        try setup.save()

        var descriptor = FetchDescriptor<Appointment>()
        descriptor.propertiesToFetch = [\.note]
        let appointment = try #require(try ModelContext(container).fetch(descriptor).first)
        #expect(appointment.identifier == identifier)
        #expect(appointment.note == "first")
    }

    /// A relationship declared with `let` could not be read back with its related model, nor follow changes made
    /// through the other side: the container refuses it, naming it.
    @Test func aLetRelationshipIsRefused() {
        let error = #expect(throws: SwiftDataError.self) { try makeInMemoryContainer(Pass.self) }
        #expect(error == .loadIssueModelContainer)
        #expect(error?.description.contains("Pass.holder") == true)
    }
}
