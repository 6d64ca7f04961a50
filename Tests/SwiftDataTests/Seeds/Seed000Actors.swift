import Foundation
import SwiftData

// Seed 000's background import actors, as the article writes them. The article does not show `ProjektiDTO`, and
// the batch importer's text is cut off after `kohteet[eraIndeksi..`; both are completed here in the article's
// spirit (batches of 100, one save per batch).

struct TehtavaDTO: Codable, Sendable {
    var otsikko: String
    var onTehty: Bool
    var prioriteetti: Int
}

struct ProjektiDTO: Codable, Sendable {
    var nimi: String
    var kuvaus: String
    var luontipvm: Date
    var tehtavat: [TehtavaDTO]
}

@ModelActor
actor TietojenTuontipalvelu {
    func tuoProjektitJSONsta(_ data: Data) throws -> Int {
        let dekooderi = JSONDecoder()
        dekooderi.dateDecodingStrategy = .iso8601

        let projektitDTO = try dekooderi.decode([ProjektiDTO].self, from: data)

        for dto in projektitDTO {
            let projekti = Projekti(
                nimi: dto.nimi,
                kuvaus: dto.kuvaus,
                luontipvm: dto.luontipvm
            )
            modelContext.insert(projekti)

            for tehtavaDTO in dto.tehtavat {
                let tehtava = Tehtava(
                    otsikko: tehtavaDTO.otsikko,
                    onTehty: tehtavaDTO.onTehty,
                    prioriteetti: tehtavaDTO.prioriteetti
                )
                tehtava.projekti = projekti
                modelContext.insert(tehtava)
            }
        }

        try modelContext.save()
        return projektitDTO.count
    }
}

@ModelActor
actor MassatuontiPalvelu {
    func tuoSuuriDatajoukko(_ kohteet: [ProjektiDTO]) throws {
        let erakoko = 100

        for eraIndeksi in stride(from: 0, to: kohteet.count, by: erakoko) {
            let eranLoppu = min(eraIndeksi + erakoko, kohteet.count)
            let era = kohteet[eraIndeksi..<eranLoppu]
            for dto in era {
                modelContext.insert(Projekti(nimi: dto.nimi, kuvaus: dto.kuvaus, luontipvm: dto.luontipvm))
            }
            try modelContext.save()
        }
    }
}
