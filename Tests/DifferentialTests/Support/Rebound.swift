import Foundation

@testable import SwiftData

/// A template predicate applied to another variable, so random trees can combine templates. It evaluates the
/// template on the variable's value, and translates the template's body with its variable bound to the new one,
/// which is exactly how the body would translate written inline.
struct Rebound: StandardPredicateExpression {
    typealias Output = Bool
    let predicate: Predicate<Person>
    let variable: PredicateExpressions.Variable<Person>

    func evaluate(_ bindings: PredicateBindings) throws -> Bool {
        try predicate.evaluate(try variable.evaluate(bindings))
    }

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "test-only expression"))
    }

    init(predicate: Predicate<Person>, variable: PredicateExpressions.Variable<Person>) {
        self.predicate = predicate
        self.variable = variable
    }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "test-only expression"))
    }
}

extension Rebound: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        try predicate.translateBody(into: &state, arguments: [try state.translate(variable)])
    }
}
