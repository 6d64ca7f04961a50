import Foundation
import SwiftData
import Testing

/// A model's registrar is made when the model is first read; observers register by reading, so they see every
/// change after they started observing, whatever happened to the model before.
@Suite struct ObservationTests {
    @Test func aModelChangedBeforeItWasEverReadNotifiesLaterObservers() throws {
        let context = ModelContext(try makeInMemoryContainer(Pet.self, Owner.self))
        let pet = Pet(name: "Rex")
        pet.name = "Rexie"
        context.insert(pet)
        try context.save()
        #expect(observesChange({ _ = pet.name }) { pet.name = "Max" })
        #expect(pet.name == "Max")
    }

    @Test func observersSeeOnlyThePropertiesTheyRead() throws {
        let owner = Owner(name: "Ann")
        let pet = Pet(name: "Rex")
        #expect(!observesChange({ _ = pet.name }) { pet.owner = owner })
        #expect(observesChange({ _ = pet.owner }) { pet.owner = nil })
        // SwiftData's own changes to a relationship's other side notify its observers too.
        #expect(observesChange({ _ = owner.pets }) { owner.pets = [pet] })
    }

    @Test func aSubclassSharesItsRootsRegistrar() throws {
        let trip = Tyomatka(
            kohde: "Oulu", alkupvm: .now, loppupvm: .now, paivaraha: 51, yritys: "Firma")
        trip.yritys = "Toinen"
        #expect(observesChange({ _ = trip.kohde }) { trip.kohde = "Tampere" })
        #expect(observesChange({ _ = trip.yritys }) { trip.yritys = "Kolmas" })
        #expect(!observesChange({ _ = trip.yritys }) { trip.paivaraha = 60 })
    }

    @Test func aFetchedModelNotifiesItsObservers() throws {
        let container = try makeInMemoryContainer(Pet.self, Owner.self)
        let writer = ModelContext(container)
        writer.insert(Pet(name: "Rex"))
        try writer.save()
        let context = ModelContext(container)
        let pet = try #require(try context.fetch(FetchDescriptor<Pet>()).first)
        #expect(observesChange({ _ = pet.name }) { pet.name = "Max" })
        // A rollback restores the saved value, and tells observers.
        #expect(observesChange({ _ = pet.name }) { context.rollback() })
        #expect(pet.name == "Rex")
    }
}
