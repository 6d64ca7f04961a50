import Foundation
import SwiftData

// Seed 000's repository, as the article writes it, with one change: `haeNimella` names the model type in
// `#Predicate<Projekti>`. As printed, nothing in that statement says which model the closure's parameter is (no
// sort descriptor, no annotation), so no Swift compiler can infer it, on Linux or on Apple platforms.

protocol ProjektiRepository {
    func haeKaikki() throws -> [Projekti]
    func haeKeskeneraiset() throws -> [Projekti]
    func haeNimella(_ nimi: String) throws -> [Projekti]
    func lisaa(_ projekti: Projekti) throws
    func poista(_ projekti: Projekti) throws
    func tallenna() throws
}

class SwiftDataProjektiRepository: ProjektiRepository {
    private let modelContext: ModelContext

    init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    func haeKaikki() throws -> [Projekti] {
        let descriptor = FetchDescriptor(
            sortBy: [SortDescriptor(\Projekti.luontipvm, order: .reverse)]
        )
        return try modelContext.fetch(descriptor)
    }

    func haeKeskeneraiset() throws -> [Projekti] {
        let descriptor = FetchDescriptor(
            predicate: #Predicate { !$0.onValmis },
            sortBy: [SortDescriptor(\Projekti.luontipvm, order: .reverse)]
        )
        return try modelContext.fetch(descriptor)
    }

    func haeNimella(_ nimi: String) throws -> [Projekti] {
        let descriptor = FetchDescriptor(
            predicate: #Predicate<Projekti> { projekti in
                projekti.nimi.localizedStandardContains(nimi)
            }
        )
        return try modelContext.fetch(descriptor)
    }

    func lisaa(_ projekti: Projekti) throws {
        modelContext.insert(projekti)
        try tallenna()
    }

    func poista(_ projekti: Projekti) throws {
        modelContext.delete(projekti)
        try tallenna()
    }

    func tallenna() throws {
        try modelContext.save()
    }
}
