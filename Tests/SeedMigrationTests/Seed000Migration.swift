import Foundation
import SwiftData

// Seed 000's migration plan, as the article writes it, with one change: the article's
// `context.fetch(FetchDescriptor())` names no model type, which no compiler can infer, so it reads
// `FetchDescriptor<ProjektiSkemaV2.Projekti>()`.

enum ProjektiMigraatio: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [ProjektiSkemaV1.self, ProjektiSkemaV2.self]
    }

    static var stages: [MigrationStage] {
        [migraatioV1V2]
    }

    static let migraatioV1V2 = MigrationStage.custom(
        fromVersion: ProjektiSkemaV1.self,
        toVersion: ProjektiSkemaV2.self
    ) { context in
        // Muunna olemassa oleva data
        let vanhatProjektit = try context.fetch(
            FetchDescriptor<ProjektiSkemaV2.Projekti>()
        )

        for projekti in vanhatProjektit {
            // Esimerkki: lisää uusi laskennallinen arvo
            projekti.slug = projekti.nimi
                .lowercased()
                .replacingOccurrences(of: " ", with: "-")
        }

        try context.save()
    }
}

enum ProjektiSkemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] {
        [Projekti.self]
    }

    @Model
    class Projekti {
        var nimi: String
        var kuvaus: String

        init(nimi: String, kuvaus: String) {
            self.nimi = nimi
            self.kuvaus = kuvaus
        }
    }
}

enum ProjektiSkemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] {
        [Projekti.self]
    }

    @Model
    class Projekti {
        var nimi: String
        var kuvaus: String
        var slug: String  // Uusi ominaisuus

        init(nimi: String, kuvaus: String, slug: String = "") {
            self.nimi = nimi
            self.kuvaus = kuvaus
            self.slug = slug
        }
    }
}
