import SwiftData

// The models of the "projects and tasks" story, as the seed article writes them.

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
