// SQL forms of the `PredicateExpressions` nodes for values, key paths, comparisons, logic and arithmetic.
//
// Equality uses `IS` / `IS NOT`, which treat NULL as a value like Swift's `==` on optionals, so SQL's
// three-valued logic never changes a result.

extension PredicateExpressions.Value: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        let value = try PredicateTranslation.sqlValue(self.value)
        if value == .null { return "NULL" }
        return state.bind(value)
    }
}

extension PredicateExpressions.NilLiteral: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String { "NULL" }
}

extension PredicateExpressions.KeyPath: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        if root is PredicateExpressions.Variable<Root.Output> {
            let column = try state.column(for: keyPath)
            if case .json? = column.property.codec.map(\.unwrappedCodec) {
                throw UnsupportedPredicateNode(reason: "\(column.property.name) is stored as JSON")
            }
            return column.sql
        }
        // `$0.priority.rawValue`: the column already stores the raw value.
        if let inner = root as? any KeyPathNode,
            let enumType = Root.Output.self as? any (RawRepresentable & CaseIterable).Type,
            isRawValueKeyPath(keyPath, of: enumType),
            let property = try inner.storedProperty(in: state),
            case .rawRepresentable? = property.codec.map(\.unwrappedCodec)
        {
            return quoted(property.name)
        }
        throw UnsupportedPredicateNode(reason: "key path \(keyPath) is not a stored column")
    }
}

/// Lets a key-path node report the stored property it names, for `rawValue` access through it.
protocol KeyPathNode {
    func storedProperty(in state: PredicateTranslation) throws -> Schema.Entity.Property?
}

extension PredicateExpressions.KeyPath: KeyPathNode {
    func storedProperty(in state: PredicateTranslation) throws -> Schema.Entity.Property? {
        guard root is PredicateExpressions.Variable<Root.Output> else { return nil }
        return try state.column(for: keyPath).property
    }
}

extension PredicateExpressions.Equal: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        "(\(try state.translate(lhs)) IS \(try state.translate(rhs)))"
    }
}

extension PredicateExpressions.NotEqual: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        "(\(try state.translate(lhs)) IS NOT \(try state.translate(rhs)))"
    }
}

extension PredicateExpressions.Comparison: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        let symbol =
            switch op {
            case .lessThan: "<"
            case .lessThanOrEqual: "<="
            case .greaterThan: ">"
            case .greaterThanOrEqual: ">="
            @unknown default: throw UnsupportedPredicateNode(reason: "unknown comparison \(op)")
            }
        return "(\(try state.translate(lhs)) \(symbol) \(try state.translate(rhs)))"
    }
}

extension PredicateExpressions.Conjunction: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        "(\(try state.translate(lhs)) AND \(try state.translate(rhs)))"
    }
}

extension PredicateExpressions.Disjunction: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        "(\(try state.translate(lhs)) OR \(try state.translate(rhs)))"
    }
}

extension PredicateExpressions.Negation: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        "(NOT \(try state.translate(wrapped)))"
    }
}

extension PredicateExpressions.Arithmetic: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        // Integer overflow traps in Swift but not in SQL; only `Int`-free arithmetic is pushed down exactly, so
        // integer arithmetic stays in memory.
        guard !(Output.self is any FixedWidthInteger.Type) else {
            throw UnsupportedPredicateNode(
                reason: "integer arithmetic is evaluated in memory to keep overflow semantics")
        }
        let symbol =
            switch op {
            case .add: "+"
            case .subtract: "-"
            case .multiply: "*"
            @unknown default: throw UnsupportedPredicateNode(reason: "unknown arithmetic \(op)")
            }
        return "(\(try state.translate(lhs)) \(symbol) \(try state.translate(rhs)))"
    }
}

extension PredicateExpressions.NilCoalesce: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        "COALESCE(\(try state.translate(lhs)), \(try state.translate(rhs)))"
    }
}

extension PredicateExpressions.SequenceContains: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String {
        // `captured.contains($0.x)`: a captured collection of values becomes `x IN (…)`.
        guard let values = sequence as? any CapturedSequence else {
            throw UnsupportedPredicateNode(reason: "contains is only pushed down on a captured collection")
        }
        let element = try state.translate(self.element)
        var placeholders: [String] = []
        for value in values.capturedElements {
            let sqlValue = try PredicateTranslation.sqlValue(value)
            // `x IN (NULL)` is never true in SQL, while Swift's `[nil].contains(nil)` is.
            guard sqlValue != .null else { throw UnsupportedPredicateNode(reason: "nil in a captured collection") }
            placeholders.append(state.bind(sqlValue))
        }
        guard !placeholders.isEmpty else { return "0" }
        return "(\(element) IN (\(placeholders.joined(separator: ", "))))"
    }
}

/// A `PredicateExpressions.Value` holding a captured collection.
protocol CapturedSequence {
    var capturedElements: [Any] { get }
}

extension PredicateExpressions.Value: CapturedSequence where Output: Sequence {
    var capturedElements: [Any] { value.map { $0 as Any } }
}

extension ValueCodec {
    /// The codec of the value inside any optionals.
    var unwrappedCodec: ValueCodec {
        if case .optional(let wrapped, _, _) = self { return wrapped.unwrappedCodec }
        return self
    }
}

/// True when a key path returns each case's `rawValue`.
///
/// Key paths to a protocol requirement reached generically do not compare equal to the concrete `\E.rawValue`, and
/// on Linux their description carries no name, so the key path is checked on every case instead. Enums that are not
/// `CaseIterable` are filtered in memory.
private func isRawValueKeyPath<E: RawRepresentable & CaseIterable>(_ keyPath: AnyKeyPath, of _: E.Type) -> Bool {
    guard let typed = keyPath as? KeyPath<E, E.RawValue>, !E.allCases.isEmpty else { return false }
    return E.allCases.allSatisfy {
        guard let value = $0[keyPath: typed] as? AnyHashable, let raw = $0.rawValue as? AnyHashable else {
            return false
        }
        return value == raw
    }
}
