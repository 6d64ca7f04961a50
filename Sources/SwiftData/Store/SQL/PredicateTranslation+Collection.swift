// SQL forms of the `PredicateExpressions` nodes over collections: captured arrays (`IN`), to-many relationships
// (`EXISTS` subqueries), and string containment (the dialect's forms of Swift's own string operations).

extension PredicateExpressions.SequenceContains: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        if let values = sequence as? any CapturedSequence {
            return try values.inList(element: element, elementType: RHS.Output.self, into: &state)
        }
        switch try state.translate(sequence) {
        case .collection(let collection):
            // `$0.items.contains(model)`
            let alias = state.makeAlias()
            let element = try state.scalar(self.element)
            let table = state.dialect.quoted(collection.entity.tableName)
            let key = state.dialect.quoted(SQLTableLayout.primaryKey)
            return .scalar(
                "(EXISTS (SELECT 1 FROM \(table) AS \(alias) "
                    + "WHERE \(collection.membership(alias)) AND \(alias).\(key) = \(element)))"
            )
        default:
            throw UnsupportedPredicateNode(
                reason: "contains is only pushed down on captured collections and relationships")
        }
    }
}

extension CapturedSequence {
    /// `captured.contains($0.x)` as `x IN (…)`.
    func inList(element: Any, elementType: Any.Type, into state: inout PredicateTranslation) throws -> SQLFragment {
        let element = try state.scalar(element)
        var placeholders: [String] = []
        for value in capturedElements {
            let (sqlValue, kind) = try PredicateTranslation.typedSQLValue(value)
            // `x IN (NULL)` is never true in SQL, while Swift's `[nil].contains(nil)` is.
            guard sqlValue != .null else { throw UnsupportedPredicateNode(reason: "nil in a captured collection") }
            placeholders.append(state.bind(sqlValue, kind: kind))
        }
        guard !placeholders.isEmpty else { return .scalar(state.dialect.literal(false)) }
        return .scalar(
            "(\(state.dialect.membership(of: element, in: placeholders, asStrings: comparesAsStrings(elementType))))")
    }
}

/// A `PredicateExpressions.Value` holding a captured collection.
protocol CapturedSequence {
    var capturedElements: [Any] { get }
}

extension PredicateExpressions.Value: CapturedSequence where Output: Sequence {
    var capturedElements: [Any] { value.map { $0 as Any } }
}

extension PredicateExpressions.SequenceContainsWhere: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        let (rows, test) = try state.members(of: sequence, variable: variable.key, test: self.test)
        return .scalar("(EXISTS (SELECT 1 \(rows) AND \(state.dialect.isTrue(test))))")
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        let (rows, test) = try state.members(of: sequence, variable: variable.key, test: self.test)
        return .scalar("(NOT EXISTS (SELECT 1 \(rows) AND \(state.dialect.isNotTrue(test))))")
    }
}

extension PredicateExpressions.Filter: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        guard case .collection(let collection) = try state.translate(sequence) else {
            throw UnsupportedPredicateNode(reason: "filter is only pushed down on a to-many relationship")
        }
        // The filtered collection: its members that pass the test, each tested on its own alias.
        let variable = self.variable.key
        var inner = state
        let innerAlias = inner.makeAlias()
        inner.bindVariable(
            variable,
            to: .model(ModelReference(entity: collection.entity, qualifier: innerAlias, join: nil))
        )
        let test = try inner.scalar(filter)
        state = inner
        let table = state.dialect.quoted(collection.entity.tableName)
        let key = state.dialect.quoted(SQLTableLayout.primaryKey)
        let passes = state.dialect.isTrue(test)
        return .collection(
            CollectionReference(entity: collection.entity) { alias in
                "\(collection.membership(alias)) AND \(alias).\(key) IN (SELECT \(innerAlias).\(key) FROM \(table) "
                    + "AS \(innerAlias) WHERE \(passes))"
            }
        )
    }
}

extension PredicateTranslation {
    /// The rows of a to-many relationship (`FROM … WHERE membership`) and a test on each, with the closure variable
    /// bound to the row's alias.
    mutating func members(
        of sequence: Any,
        variable: PredicateExpressions.VariableID,
        test: Any
    ) throws -> (rows: String, test: String) {
        guard case .collection(let collection) = try translate(sequence) else {
            throw UnsupportedPredicateNode(reason: "only to-many relationships are searched in SQL")
        }
        let alias = makeAlias()
        bindVariable(variable, to: .model(ModelReference(entity: collection.entity, qualifier: alias, join: nil)))
        let condition = try scalar(test)
        return (
            "FROM \(dialect.quoted(collection.entity.tableName)) AS \(alias) WHERE \(collection.membership(alias))",
            condition
        )
    }
}

// MARK: - Strings

extension PredicateExpressions.CollectionContainsCollection: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        guard Base.Output.self == String.self, Other.Output.self == String.self else {
            throw UnsupportedPredicateNode(reason: "contains(_:) is only pushed down on strings")
        }
        return try state.call(.contains, base, other)
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
        guard Base.Output.self == String.self, Prefix.Output.self == String.self else {
            throw UnsupportedPredicateNode(reason: "starts(with:) is only pushed down on strings")
        }
        return try state.call(.startsWith, base, prefix)
    }
}

#if !canImport(Darwin)
    extension PredicateExpressions.StringLocalizedStandardContains: SQLTranslatable {
        func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
            try state.call(.localizedStandardContains, root, other)
        }
    }

    extension PredicateExpressions.StringCaseInsensitiveCompare: SQLTranslatable {
        func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
            try state.call(.caseInsensitiveCompare, root, other)
        }
    }

    extension PredicateExpressions.StringLocalizedCompare: SQLTranslatable {
        func translate(into state: inout PredicateTranslation) throws -> SQLFragment {
            try state.call(.localizedCompare, root, other)
        }
    }
#endif
