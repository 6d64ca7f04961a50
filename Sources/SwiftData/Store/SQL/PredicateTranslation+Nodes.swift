// SQL forms of the `PredicateExpressions` nodes for values, variables, key paths, comparisons, logic and
// arithmetic.
//
// Equality is the dialect's null-safe equality, which treats NULL as a value like Swift's `==` on optionals, so
// SQL's three-valued logic never changes a result. Strings compare as the dialect makes them compare like Swift's
// `String` (canonical equivalence), so `==` and `<` agree with Swift.

extension PredicateExpressions.Value: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        let (value, kind) = try PredicateTranslation.typedSQLValue(self.value)
        if value == .null { return .scalar("NULL") }
        return .scalar(state.bind(value, kind: kind))
    }
}

extension PredicateExpressions.NilLiteral: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment { .scalar("NULL") }
}

extension PredicateExpressions.Variable: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        try state.fragment(for: key)
    }
}

extension PredicateExpressions.KeyPath: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        switch try state.translate(root) {
        case .model(let reference):
            return try state.member(keyPath, of: reference)
        case .collection(let collection):
            let alias = state.makeAlias()
            let table = state.dialect.quoted(collection.entity.tableName)
            let rows = "FROM \(table) AS \(alias) WHERE \(collection.membership(alias))"
            if KnownKeyPaths.isCount(keyPath, on: Root.Output.self) { return .scalar("(SELECT count(*) \(rows))") }
            if KnownKeyPaths.isIsEmpty(keyPath, on: Root.Output.self) {
                return .scalar("(NOT EXISTS (SELECT 1 \(rows)))")
            }
            throw UnsupportedPredicateNode(reason: "\(keyPath) on a to-many relationship has no SQL form")
        case .composite(let composite):
            // A field of a composite attribute: a leaf is a column, a nested structure another composite.
            guard let structure = Root.Output.self as? any Decodable.Type,
                let path = Self.path(of: keyPath, in: composite, on: structure)
            else {
                throw UnsupportedPredicateNode(
                    reason: "\(keyPath) does not read one stored field of \(composite.property.name)")
            }
            if composite.codec.leaves.contains(where: { $0.path == path }) {
                let name = ([composite.property.name] + path).joined(separator: ".")
                return .scalar(state.column(name, of: composite.model))
            }
            return .composite(
                CompositeReference(
                    model: composite.model,
                    property: composite.property,
                    codec: composite.codec,
                    prefix: path,
                    presenceColumn: composite.presenceColumn
                )
            )
        case .scalar(let value):
            if KnownKeyPaths.isRawValue(keyPath, on: Root.Output.self) { return .scalar(value) }
            if Root.Output.self == String.self {
                if keyPath == \String.isEmpty as AnyKeyPath {
                    return .scalar(try state.dialect.expression(for: .isEmpty, [value]))
                }
                if keyPath == \String.count as AnyKeyPath {
                    return .scalar(try state.dialect.expression(for: .characterCount, [value]))
                }
            }
            throw UnsupportedPredicateNode(reason: "key path \(keyPath) has no SQL form")
        }
    }
}

extension PredicateExpressions.KeyPath {
    fileprivate static func path<Structure: Decodable>(
        of keyPath: AnyKeyPath,
        in composite: CompositeReference,
        on structure: Structure.Type
    ) -> [String]? {
        composite.codec.path(of: keyPath, on: structure, under: composite.prefix)
    }
}

extension PredicateExpressions.Equal: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        let (left, right) = (try state.translate(lhs), try state.translate(rhs))
        if let presence = state.presenceColumn(comparedWithNil: left, right) { return .scalar("(\(presence) IS NULL)") }
        return try state.comparison(of: left, .isEqual, right, of: LHS.Output.self)
    }
}

extension PredicateExpressions.NotEqual: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        let (left, right) = (try state.translate(lhs), try state.translate(rhs))
        if let presence = state.presenceColumn(comparedWithNil: left, right) {
            return .scalar("(\(presence) IS NOT NULL)")
        }
        return try state.comparison(of: left, .isNotEqual, right, of: LHS.Output.self)
    }
}

extension PredicateTranslation {
    /// The presence column of an optional composite attribute compared with `nil` (`$0.contact == nil`), or nil
    /// for any other comparison. Only a nil check can use it: the column says whether the structure is there, not
    /// what it holds.
    mutating func presenceColumn(comparedWithNil left: SQLFragment, _ right: SQLFragment) -> String? {
        let composite: CompositeReference
        switch (left, right) {
        case (.composite(let reference), .scalar("NULL")), (.scalar("NULL"), .composite(let reference)):
            composite = reference
        default:
            return nil
        }
        guard composite.prefix.isEmpty, let presence = composite.presenceColumn else { return nil }
        return column(presence, of: composite.model)
    }
}

/// True when values of the type are strings, which must always compare as Swift compares them: a column brings its
/// collation to a comparison, but an expression such as `COALESCE(…)` does not.
func comparesAsStrings(_ type: Any.Type) -> Bool {
    unwrappedValueType(type) == String.self
}

extension PredicateExpressions.Comparison: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        let comparison: SQLComparison =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqual
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqual
            @unknown default: throw UnsupportedPredicateNode(reason: "unknown comparison \(op)")
            }
        if case .decimal? = ValueCodec.make(for: LHS.Output.self)?.unwrappedCodec {
            throw UnsupportedPredicateNode(reason: "decimals are compared in memory")
        }
        return try state.comparison(lhs, comparison, rhs, of: LHS.Output.self)
    }
}

extension PredicateExpressions.Conjunction: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        try state.infix(lhs, "AND", rhs)
    }
}

extension PredicateExpressions.Disjunction: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        try state.infix(lhs, "OR", rhs)
    }
}

extension PredicateExpressions.Negation: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        .scalar("(NOT \(try state.scalar(wrapped)))")
    }
}

extension PredicateExpressions.Conditional: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        let condition = try state.scalar(test)
        return .scalar(
            "(CASE WHEN \(condition) THEN \(try state.scalar(trueBranch)) ELSE \(try state.scalar(falseBranch)) END)")
    }
}

// MARK: - Arithmetic

extension PredicateExpressions.Arithmetic: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        let symbol =
            switch op {
            case .add: "+"
            case .subtract: "-"
            case .multiply: "*"
            @unknown default: throw UnsupportedPredicateNode(reason: "unknown arithmetic \(op)")
            }
        return try state.infix(lhs, symbol, rhs)
    }
}

extension PredicateExpressions.IntDivision: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        // Both truncate toward zero; Swift traps on a zero divisor, where the dialect gives NULL (and so no match).
        .scalar(try state.dialect.expression(for: .integerDivide, [try state.scalar(lhs), try state.scalar(rhs)]))
    }
}

extension PredicateExpressions.IntRemainder: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        .scalar(try state.dialect.expression(for: .integerRemainder, [try state.scalar(lhs), try state.scalar(rhs)]))
    }
}

extension PredicateExpressions.FloatDivision: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        // SQL gives NULL for x / 0 where Swift gives ±infinity or NaN; a zero divisor stays in memory.
        try state.call(.floatDivide, lhs, rhs)
    }
}

extension PredicateExpressions.UnaryMinus: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        .scalar("(- \(try state.scalar(wrapped)))")
    }
}

// MARK: - Ranges

extension PredicateExpressions.RangeExpressionContains: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        guard let bounds = range as? any RangeNode else {
            throw UnsupportedPredicateNode(reason: "only literal ranges are pushed down")
        }
        let element = try state.scalar(self.element)
        return .scalar(try bounds.condition(for: element, into: &state))
    }
}

extension PredicateExpressions.ClosedRange: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        throw UnsupportedPredicateNode(reason: "a range is not a value")
    }
}

extension PredicateExpressions.Range: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        throw UnsupportedPredicateNode(reason: "a range is not a value")
    }
}

/// A range node that can test whether a value lies in it.
protocol RangeNode {
    func condition(for element: String, into state: inout PredicateTranslation) throws -> String
}

extension PredicateExpressions.ClosedRange: RangeNode {
    func condition(for element: String, into state: inout PredicateTranslation) throws -> String {
        try state.bounds(of: element, lower, .greaterThanOrEqual, upper, .lessThanOrEqual, of: LHS.Output.self)
    }
}

extension PredicateExpressions.Range: RangeNode {
    func condition(for element: String, into state: inout PredicateTranslation) throws -> String {
        try state.bounds(of: element, lower, .greaterThanOrEqual, upper, .lessThan, of: LHS.Output.self)
    }
}

extension PredicateTranslation {
    /// `(element >= lower AND element < upper)`, or with another pair of comparisons, over a range's bounds.
    mutating func bounds(
        of element: String,
        _ lower: Any,
        _ lowerComparison: SQLComparison,
        _ upper: Any,
        _ upperComparison: SQLComparison,
        of type: Any.Type
    ) throws -> String {
        let asStrings = comparesAsStrings(type)
        let above = dialect.comparison(element, lowerComparison, try scalar(lower), asStrings: asStrings)
        let below = dialect.comparison(element, upperComparison, try scalar(upper), asStrings: asStrings)
        return "(\(above) AND \(below))"
    }
}

// MARK: - Optionals

extension PredicateExpressions.NilCoalesce: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        .scalar("COALESCE(\(try state.scalar(lhs)), \(try state.scalar(rhs)))")
    }
}

extension PredicateExpressions.ForcedUnwrap: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        // Evaluating `nil!` fails in Swift; the dialect's unwrap stops the query, and the predicate runs in memory.
        try state.call(.forceUnwrap, inner)
    }
}

extension PredicateExpressions.OptionalFlatMap: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        switch try state.translate(wrapped) {
        case .model(let reference):
            if let condition = reference.typeCondition {
                // `($0 as? Subclass)?.property`: the row itself, when it is of the subclass.
                state.bindVariable(variable.key, to: .model(reference))
                let body = try state.scalar(transform)
                return .scalar("(CASE WHEN \(condition) THEN \(body) ELSE NULL END)")
            }
            guard let join = reference.join else {
                throw UnsupportedPredicateNode(reason: "optional chaining on the fetched model")
            }
            let alias = state.makeAlias()
            state.bindVariable(
                variable.key,
                to: .model(ModelReference(entity: reference.entity, qualifier: alias, join: nil))
            )
            let body = try state.scalar(transform)
            let table = state.dialect.quoted(reference.entity.tableName)
            return .scalar("(SELECT \(body) FROM \(table) AS \(alias) WHERE \(join(alias)))")
        case .scalar(let value):
            state.bindVariable(variable.key, to: .scalar(value))
            let body = try state.scalar(transform)
            return .scalar("(CASE WHEN \(value) IS NULL THEN NULL ELSE \(body) END)")
        case .composite(let composite):
            // `$0.address?.city`: the presence column says whether the optional structure is there.
            guard let presence = composite.presenceColumn, composite.prefix.isEmpty else {
                throw UnsupportedPredicateNode(reason: "optional chaining into a nested optional structure")
            }
            let present = state.column(presence, of: composite.model)
            state.bindVariable(variable.key, to: .composite(composite))
            let body = try state.scalar(transform)
            return .scalar("(CASE WHEN \(present) IS NULL THEN NULL ELSE \(body) END)")
        case .collection:
            throw UnsupportedPredicateNode(reason: "optional chaining through a to-many relationship")
        }
    }
}

// MARK: - Known Key Paths

/// Recognises the key paths of standard members (`count`, `isEmpty`, `rawValue`) on types known only at run time.
enum KnownKeyPaths {
    static func isCount(_ keyPath: AnyKeyPath, on type: Any.Type) -> Bool {
        (type as? any StandardCollectionKeyPaths.Type)?.countKeyPath == keyPath
    }

    static func isIsEmpty(_ keyPath: AnyKeyPath, on type: Any.Type) -> Bool {
        (type as? any StandardCollectionKeyPaths.Type)?.isEmptyKeyPath == keyPath
    }

    /// True when a key path returns each case's `rawValue`. Key paths to a protocol requirement reached
    /// generically do not compare equal to the concrete `\E.rawValue`, and on Linux their description carries no
    /// name, so the key path is checked on every case. Enums that are not `CaseIterable` stay in memory.
    static func isRawValue(_ keyPath: AnyKeyPath, on type: Any.Type) -> Bool {
        guard let enumType = type as? any (RawRepresentable & CaseIterable).Type else { return false }
        return returnsRawValue(keyPath, enumType)
    }

    private static func returnsRawValue<E: RawRepresentable & CaseIterable>(_ keyPath: AnyKeyPath, _: E.Type) -> Bool {
        guard let typed = keyPath as? KeyPath<E, E.RawValue>, !E.allCases.isEmpty else { return false }
        return E.allCases.allSatisfy {
            guard let value = $0[keyPath: typed] as? AnyHashable, let raw = $0.rawValue as? AnyHashable else {
                return false
            }
            return value == raw
        }
    }
}

/// The `count` and `isEmpty` key paths of arrays, for recognising them on a to-many relationship.
protocol StandardCollectionKeyPaths {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Array: StandardCollectionKeyPaths {
    static var countKeyPath: AnyKeyPath { \Self.count }
    static var isEmptyKeyPath: AnyKeyPath { \Self.isEmpty }
}

extension ValueCodec {
    /// The codec of the value inside any optionals.
    package var unwrappedCodec: ValueCodec {
        if case .optional(let wrapped, _, _) = self { return wrapped.unwrappedCodec }
        return self
    }
}

// MARK: - Classes

extension PredicateExpressions.TypeCheck: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        guard case .model(let reference) = try state.translate(input) else {
            throw UnsupportedPredicateNode(reason: "type checks on values run in memory")
        }
        return .scalar(try state.isInstance(reference, of: Desired.self))
    }
}

extension PredicateExpressions.ConditionalCast: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        guard case .model(let reference) = try state.translate(input),
            let desiredType = Desired.self as? any PersistentModel.Type
        else {
            throw UnsupportedPredicateNode(reason: "casts of values run in memory")
        }
        var narrowed = ModelReference(
            entity: EntityRegistry.shared.entity(forType: desiredType),
            qualifier: reference.qualifier,
            join: reference.join
        )
        narrowed.typeCondition = try state.isInstance(reference, of: Desired.self)
        return .model(narrowed)
    }
}
