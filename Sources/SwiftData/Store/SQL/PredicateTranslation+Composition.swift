// SQL form of `#Expression` values evaluated inside a predicate (`ExpressionEvaluate`). The expression's body is
// translated in place, with its variables bound to what the arguments stand for. (Foundation's `#Predicate` macro
// on Linux rejects `.evaluate(_:)` in a predicate; such nodes come from predicates built with
// `PredicateExpressions.build_evaluate`, and `Predicate` bodies compose the same way through
// `ComposablePredicateBody`.)

extension PredicateExpressions.ExpressionEvaluate: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        guard let captured = expression as? any CapturedValueNode,
            let composed = captured.capturedValue as? any ComposablePredicateBody
        else {
            throw UnsupportedPredicateNode(reason: "only captured expressions are evaluated in SQL")
        }
        var arguments: [SQLFragment] = []
        for argument in repeat each input { arguments.append(try state.translate(argument)) }
        return try composed.translateBody(into: &state, arguments: arguments)
    }
}

/// A captured value inside a predicate.
protocol CapturedValueNode {
    var capturedValue: Any { get }
}

extension PredicateExpressions.Value: CapturedValueNode {
    var capturedValue: Any { value }
}

/// A predicate or expression whose body can be translated with its variables bound to given fragments.
protocol ComposablePredicateBody {
    func translateBody(into state: inout PredicateTranslation, arguments: [SQLFragment]) throws -> SQLFragment
}

extension Predicate: ComposablePredicateBody {
    func translateBody(into state: inout PredicateTranslation, arguments: [SQLFragment]) throws -> SQLFragment {
        try state.bindArguments(arguments, to: repeat each self.variable)
        return try state.translate(expression)
    }
}

extension Expression: ComposablePredicateBody {
    func translateBody(into state: inout PredicateTranslation, arguments: [SQLFragment]) throws -> SQLFragment {
        try state.bindArguments(arguments, to: repeat each self.variable)
        return try state.translate(expression)
    }
}

extension PredicateTranslation {
    /// Binds a composed body's variables, in order, to what the arguments stand for.
    mutating func bindArguments<each Input>(
        _ arguments: [SQLFragment],
        to variables: repeat PredicateExpressions.Variable<each Input>
    ) throws {
        var index = 0
        for variable in repeat each variables {
            guard index < arguments.count else { throw UnsupportedPredicateNode(reason: "missing argument") }
            bindVariable(variable.key, to: arguments[index])
            index += 1
        }
    }
}
