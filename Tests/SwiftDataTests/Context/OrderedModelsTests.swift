import Foundation
import Testing

@testable import SwiftData

/// The context's lists of inserted, changed and deleted models: in order, each model once, whether its identity
/// was recorded when it was appended or only when membership was first asked.
@Suite struct OrderedModelsTests {
    @Test func modelsAppendedWithoutIdentitiesAreFoundRemovedAndNotDuplicated() {
        let pets = (0..<5).map { Pet(name: "pet \($0)") }
        var list = OrderedModels()
        for pet in pets.prefix(3) { list.appendNew(pet) }
        #expect(list.contains(pets[1]))
        #expect(!list.contains(pets[3]))
        // A checked append after unchecked ones still refuses a model the list holds.
        list.append(pets[2])
        list.append(pets[3])
        list.appendNew(pets[4])
        #expect(list.models.map(ObjectIdentifier.init) == pets.map(ObjectIdentifier.init))
        list.remove(pets[0])
        list.remove(pets[0])
        #expect(!list.contains(pets[0]))
        #expect(list.contains(pets[4]))
        #expect(list.models.count == 4)
        list.append(pets[0])
        #expect(list.models.last === pets[0])
        #expect(list.models.count == 5)
    }

    @Test func anEmptyListAnswersAndAcceptsEitherKindOfAppend() {
        let pet = Pet(name: "Rex")
        var list = OrderedModels()
        #expect(!list.contains(pet))
        list.remove(pet)
        #expect(list.isEmpty)
        list.appendNew(pet)
        list.append(pet)
        #expect(list.models.count == 1)
    }

    @Test func theModelsHeldElsewhereAreTheOnesSomethingElseReferences() {
        var list = OrderedModels()
        for number in 0..<4 { list.appendNew(Pet(name: "pet \(number)")) }
        let held = list.models[1]
        let alsoHeld = [list.models[3]]
        var seen: [ObjectIdentifier] = []
        list.forEachHeldElsewhere { seen.append(ObjectIdentifier($0)) }
        // Every model held elsewhere is reported, in order. Unoptimized builds may report the others too: the
        // compiler keeps extra references to them there, which an optimized build does not.
        #expect(
            seen.filter { $0 == ObjectIdentifier(held) || $0 == ObjectIdentifier(alsoHeld[0]) }
                == [ObjectIdentifier(held), ObjectIdentifier(alsoHeld[0])])
        #expect(seen == list.models.map { ObjectIdentifier($0) }.filter(seen.contains))

        // An array sharing the list's storage holds every model.
        let shared = list.models
        seen = []
        list.forEachHeldElsewhere { seen.append(ObjectIdentifier($0)) }
        #expect(seen == shared.map { ObjectIdentifier($0) })
    }
}
