import Foundation
import SwiftData

// Seed 000 ("SwiftData hallintaan"), model code as the article writes it. Projekti and Tehtava live in
// Seed000Tests.swift's namespace-free copies below; only the names differ from the example target's.

@Model
class Projekti {
    var nimi: String
    var kuvaus: String
    var luontipvm: Date
    var onValmis: Bool

    @Relationship(deleteRule: .cascade, inverse: \Tehtava.projekti)
    var tehtavat: [Tehtava] = []

    init(nimi: String, kuvaus: String, luontipvm: Date = .now, onValmis: Bool = false) {
        self.nimi = nimi
        self.kuvaus = kuvaus
        self.luontipvm = luontipvm
        self.onValmis = onValmis
    }
}

@Model
class Tehtava {
    var otsikko: String
    var onTehty: Bool
    var prioriteetti: Int
    var projekti: Projekti?

    init(otsikko: String, onTehty: Bool = false, prioriteetti: Int = 0) {
        self.otsikko = otsikko
        self.onTehty = onTehty
        self.prioriteetti = prioriteetti
    }
}

@Model
class Artikkeli {
    var otsikko: String
    var sisalto: String

    @Relationship(inverse: \Tagi.artikkelit)
    var tagit: [Tagi] = []

    init(otsikko: String, sisalto: String) {
        self.otsikko = otsikko
        self.sisalto = sisalto
    }
}

@Model
class Tagi {
    var nimi: String
    var artikkelit: [Artikkeli] = []

    init(nimi: String) {
        self.nimi = nimi
    }
}

@Model
class Kayttaja {
    @Attribute(.unique) var sahkoposti: String  // Uniikki rajoite
    var nimi: String

    @Attribute(.externalStorage) var profiilikuva: Data?  // Tallennetaan erillisenä tiedostona

    @Attribute(.spotlight) var esittely: String?  // Indeksoidaan Spotlight-hakua varten

    @Transient var valiaikainenTieto: String = ""  // Ei tallenneta tietokantaan

    init(sahkoposti: String, nimi: String) {
        self.sahkoposti = sahkoposti
        self.nimi = nimi
    }
}
