import Foundation
import SwiftData

// Seed 000's model inheritance example, as the article writes it.

@Model
class Matka {
    var kohde: String
    var alkupvm: Date
    var loppupvm: Date
    var muistiinpanot: String

    init(kohde: String, alkupvm: Date, loppupvm: Date, muistiinpanot: String = "") {
        self.kohde = kohde
        self.alkupvm = alkupvm
        self.loppupvm = loppupvm
        self.muistiinpanot = muistiinpanot
    }
}

@available(iOS 26, *)
@Model
class Tyomatka: Matka {
    var paivaraha: Double
    var yritys: String
    var kokousaiheet: [String]

    init(kohde: String, alkupvm: Date, loppupvm: Date, paivaraha: Double, yritys: String, kokousaiheet: [String] = []) {
        self.paivaraha = paivaraha
        self.yritys = yritys
        self.kokousaiheet = kokousaiheet
        super.init(kohde: kohde, alkupvm: alkupvm, loppupvm: loppupvm)
    }
}

@available(iOS 26, *)
@Model
class Lomamatka: Matka {
    var syy: LomaSyy
    var budjetti: Double

    init(kohde: String, alkupvm: Date, loppupvm: Date, syy: LomaSyy, budjetti: Double) {
        self.syy = syy
        self.budjetti = budjetti
        super.init(kohde: kohde, alkupvm: alkupvm, loppupvm: loppupvm)
    }
}

enum LomaSyy: String, Codable {
    case rentoutuminen
    case seikkailu
    case kulttuuri
    case perheloma
}
