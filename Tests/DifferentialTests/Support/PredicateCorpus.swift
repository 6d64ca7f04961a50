import Foundation
import SwiftData

/// A named predicate of the corpus.
struct NamedPredicate {
    let name: String
    let predicate: Predicate<Person>
}

/// Predicates over `Person` covering every node the translator handles, with captured values drawn from a seed.
enum PredicateCorpus {
    static func templates(_ random: inout SeededRandom) -> [NamedPredicate] {
        let s = random.pick(tricky)
        let t = random.pick(tricky)
        let optionalString: String? = random.chance(0.3) ? nil : random.pick(tricky)
        let n = Int.random(in: -5...90, using: &random)
        let m = Int.random(in: -5...90, using: &random)
        let k = Int.random(in: 1...5, using: &random)
        let small = Int.random(in: 0...4, using: &random)
        let d = Double(Int.random(in: -400...400, using: &random)) / 4
        let divisor = random.pick([0.0, 2.0, -3.5])
        let date = Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &random))
        let flag = random.chance(0.5)
        let level = random.pick(Level.allCases)
        let names = (0..<3).map { _ in random.pick(tricky) }
        let ages = (0..<4).map { _ in Int.random(in: -5...90, using: &random) }
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        let low = min(n, m)
        let high = max(n, m)

        return [
            NamedPredicate(name: "name == s", predicate: #Predicate { $0.name == s }),
            NamedPredicate(name: "name != s", predicate: #Predicate { $0.name != s }),
            NamedPredicate(name: "name < s", predicate: #Predicate { $0.name < s }),
            NamedPredicate(name: "name >= s", predicate: #Predicate { $0.name >= s }),
            NamedPredicate(name: "nickname == optional", predicate: #Predicate { $0.nickname == optionalString }),
            NamedPredicate(name: "nickname == nil", predicate: #Predicate { $0.nickname == nil }),
            NamedPredicate(name: "nickname != nil", predicate: #Predicate { $0.nickname != nil }),
            NamedPredicate(name: "!(nickname == nil)", predicate: #Predicate { !($0.nickname == nil) }),
            NamedPredicate(name: "nickname ?? s > t", predicate: #Predicate { ($0.nickname ?? s) > t }),
            NamedPredicate(name: "age > n", predicate: #Predicate { $0.age > n }),
            NamedPredicate(name: "age in low...high", predicate: #Predicate { (low...high).contains($0.age) }),
            NamedPredicate(name: "age in low..<high", predicate: #Predicate { (low..<high).contains($0.age) }),
            NamedPredicate(name: "age % k == small", predicate: #Predicate { $0.age % k == small }),
            NamedPredicate(name: "age / k == small", predicate: #Predicate { $0.age / k == small }),
            NamedPredicate(name: "-age < n", predicate: #Predicate { -$0.age < n }),
            NamedPredicate(name: "age * 2 - n >= m", predicate: #Predicate { $0.age * 2 - n >= m }),
            NamedPredicate(name: "score > d", predicate: #Predicate { $0.score > d }),
            NamedPredicate(name: "score / divisor > d", predicate: #Predicate { $0.score / divisor > d }),
            NamedPredicate(name: "birth < date", predicate: #Predicate { $0.birth < date }),
            NamedPredicate(name: "isActive", predicate: #Predicate { $0.isActive }),
            NamedPredicate(name: "!isActive", predicate: #Predicate { !$0.isActive }),
            NamedPredicate(name: "isActive == flag", predicate: #Predicate { $0.isActive == flag }),
            NamedPredicate(name: "level == captured", predicate: #Predicate { $0.level == level }),
            NamedPredicate(name: "level.rawValue >= small", predicate: #Predicate { $0.level.rawValue >= small }),
            NamedPredicate(name: "rating == nil", predicate: #Predicate { $0.rating == nil }),
            NamedPredicate(name: "rating ?? 0 > small", predicate: #Predicate { ($0.rating ?? 0) > small }),
            NamedPredicate(name: "rating! > small", predicate: #Predicate { $0.rating! > small }),
            NamedPredicate(
                name: "rating.flatMap +1 == small", predicate: #Predicate { $0.rating.flatMap { $0 + 1 } == small }),
            NamedPredicate(name: "city == nil", predicate: #Predicate { $0.city == nil }),
            NamedPredicate(name: "city?.name == s", predicate: #Predicate { $0.city?.name == s }),
            NamedPredicate(
                name: "city?.population ?? 0 > n", predicate: #Predicate { ($0.city?.population ?? 0) > n * 10 }),
            NamedPredicate(
                name: "if let city, population > n",
                predicate: #Predicate { person in
                    if let city = person.city { city.population > n * 10 } else { false }
                }
            ),
            NamedPredicate(name: "pets.isEmpty", predicate: #Predicate { $0.pets.isEmpty }),
            NamedPredicate(name: "!pets.isEmpty", predicate: #Predicate { !$0.pets.isEmpty }),
            NamedPredicate(name: "pets.count > small", predicate: #Predicate { $0.pets.count > small }),
            NamedPredicate(
                name: "pets.contains where legs", predicate: #Predicate { $0.pets.contains { $0.legs == 4 } }),
            NamedPredicate(
                name: "pets.allSatisfy legs > 2", predicate: #Predicate { $0.pets.allSatisfy { $0.legs > 2 } }),
            NamedPredicate(
                name: "pets.filter legs == 4 count >= 1",
                predicate: #Predicate { $0.pets.filter { $0.legs == 4 }.count >= 1 }
            ),
            NamedPredicate(
                name: "pets.contains where name == s",
                predicate: #Predicate { $0.pets.contains { $0.name == s } }
            ),
            NamedPredicate(name: "name.contains(s)", predicate: #Predicate { $0.name.contains(s) }),
            NamedPredicate(name: "name.starts(with: s)", predicate: #Predicate { $0.name.starts(with: s) }),
            NamedPredicate(
                name: "name.localizedStandardContains(s)",
                predicate: #Predicate { $0.name.localizedStandardContains(s) }
            ),
            NamedPredicate(name: "name.isEmpty", predicate: #Predicate { $0.name.isEmpty }),
            NamedPredicate(name: "name.count == small", predicate: #Predicate { $0.name.count == small }),
            NamedPredicate(
                name: "caseInsensitiveCompare == same",
                predicate: #Predicate { $0.name.caseInsensitiveCompare(s) == same }
            ),
            NamedPredicate(
                name: "localizedCompare == ascending",
                predicate: #Predicate { $0.name.localizedCompare(s) == ascending }
            ),
            NamedPredicate(
                name: "ternary",
                predicate: #Predicate { ($0.age > n ? $0.score : -$0.score) > d }
            ),
            NamedPredicate(name: "names.contains(name)", predicate: #Predicate { names.contains($0.name) }),
            NamedPredicate(name: "ages.contains(age)", predicate: #Predicate { ages.contains($0.age) }),
            NamedPredicate(
                name: "compound",
                predicate: #Predicate { ($0.isActive && $0.age >= n) || ($0.nickname == nil && $0.score < d) }
            ),
            NamedPredicate(name: "true", predicate: #Predicate { _ in true }),
        ]
    }

    /// Random trees of template predicates joined with `&&`, `||` and `!`.
    static func compositions(_ random: inout SeededRandom, count: Int) -> [NamedPredicate] {
        var atoms: [NamedPredicate] = []
        for _ in 0..<3 { atoms += templates(&random) }
        // Drop the force unwrap from compositions: its failure would hide every other difference.
        atoms.removeAll { $0.name == "rating! > small" }
        return (0..<count).map { index in
            let tree = randomTree(&random, atoms: atoms, depth: 3)
            let predicate = Predicate<Person> { variable in tree.build(variable) }
            return NamedPredicate(name: "composition \(index): \(tree.description)", predicate: predicate)
        }
    }

    private static func randomTree(_ random: inout SeededRandom, atoms: [NamedPredicate], depth: Int) -> Tree {
        if depth == 0 || random.chance(0.3) { return .atom(random.pick(atoms)) }
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            return .and(
                randomTree(&random, atoms: atoms, depth: depth - 1), randomTree(&random, atoms: atoms, depth: depth - 1)
            )
        case 1:
            return .or(
                randomTree(&random, atoms: atoms, depth: depth - 1), randomTree(&random, atoms: atoms, depth: depth - 1)
            )
        default: return .not(randomTree(&random, atoms: atoms, depth: depth - 1))
        }
    }
}

/// A predicate built at run time from template predicates, re-rooted on one variable.
indirect enum Tree: CustomStringConvertible {
    case atom(NamedPredicate)
    case and(Tree, Tree)
    case or(Tree, Tree)
    case not(Tree)

    var description: String {
        switch self {
        case .atom(let atom): "[\(atom.name)]"
        case .and(let a, let b): "(\(a) && \(b))"
        case .or(let a, let b): "(\(a) || \(b))"
        case .not(let a): "!\(a)"
        }
    }

    /// The tree as an expression over `variable`: each atom's own expression, with its variable replaced by
    /// `variable` through `Rebound`.
    func build(_ variable: PredicateExpressions.Variable<Person>) -> any StandardPredicateExpression<Bool> {
        switch self {
        case .atom(let atom):
            return Rebound(predicate: atom.predicate, variable: variable)
        case .and(let a, let b):
            return makeConjunction(a.build(variable), b.build(variable))
        case .or(let a, let b):
            return makeDisjunction(a.build(variable), b.build(variable))
        case .not(let a):
            return makeNegation(a.build(variable))
        }
    }
}

private func makeConjunction<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(_ a: A, _ b: B)
    -> any StandardPredicateExpression<Bool>
{
    PredicateExpressions.Conjunction(lhs: a, rhs: b)
}

private func makeDisjunction<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(_ a: A, _ b: B)
    -> any StandardPredicateExpression<Bool>
{
    PredicateExpressions.Disjunction(lhs: a, rhs: b)
}

private func makeNegation<A: StandardPredicateExpression<Bool>>(_ a: A) -> any StandardPredicateExpression<Bool> {
    PredicateExpressions.Negation(a)
}
