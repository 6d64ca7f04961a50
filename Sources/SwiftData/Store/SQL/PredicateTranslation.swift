/// A node of a predicate's expression tree that has an SQL form.
///
/// Each `PredicateExpressions` type SwiftData can push down conforms in one of the `PredicateTranslation+*.swift`
/// files. A node that cannot be expressed throws `UnsupportedPredicateNode`, and the fetch then evaluates the
/// whole predicate in memory, so results never depend on what SQL can do.
protocol SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> SQLFragment
}

/// Why a predicate or sort could not be pushed down to SQL.
package struct UnsupportedPredicateNode: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { reason }

    package init(reason: String) {
        self.reason = reason
    }
}

/// What a translated predicate node stands for.
enum SQLFragment {
    /// An SQL expression with a value: a column, a bound value, a comparison…
    case scalar(String)
    /// A model: the fetched one, or one reached through to-one relationships.
    case model(ModelReference)
    /// The models of a to-many relationship.
    case collection(CollectionReference)
    /// A composite attribute, or a structure nested in one, whose leaves are columns.
    case composite(CompositeReference)
}

/// A composite attribute (a `Codable` structure stored one column per leaf) reached by a predicate, or a
/// structure nested in it at `prefix`.
struct CompositeReference {
    let model: ModelReference
    let property: Schema.Entity.Property
    let codec: CompositeCodec
    let prefix: [String]
    /// The column that is NULL when an optional composite attribute is nil.
    let presenceColumn: String?
}

/// A model a predicate reaches: the row being filtered (which has a table qualifier), or a related row found with
/// a join condition on a fresh alias.
struct ModelReference {
    let entity: Schema.Entity
    /// The qualifier of the row, for the fetched entity and for variables bound to an alias.
    let qualifier: String?
    /// The condition that selects the related row, given the alias of its table.
    let join: ((String) -> String)?
    /// For a model narrowed by `as?`, the SQL condition that the row is of that class.
    var typeCondition: String? = nil
}

/// The models of a to-many relationship: an entity and the condition that selects its member rows.
struct CollectionReference {
    let entity: Schema.Entity
    let membership: (String) -> String
}

/// The state of translating one predicate: the fetched entity, the store's dialect, the values bound so far and
/// what each closure variable stands for.
package struct PredicateTranslation {
    let entity: Schema.Entity
    /// The table layouts of the store; related entities must be in the same store to be reached in SQL.
    let layouts: [String: SQLTableLayout]
    /// The SQL of the store, which writes every token that differs between SQL stores.
    let dialect: any SQLDialect
    private(set) var bindings: [SQLValue] = []
    private var variables: [PredicateExpressions.VariableID: SQLFragment] = [:]
    private var aliasCount = 0

    init(entity: Schema.Entity, layouts: [String: SQLTableLayout], dialect: any SQLDialect) {
        self.entity = entity
        self.layouts = layouts
        self.dialect = dialect
    }

    /// The SQL `WHERE` clause and its bindings for a predicate, in a store's dialect.
    package static func whereClause<T: PersistentModel>(
        for predicate: Predicate<T>,
        entity: Schema.Entity,
        layouts: [String: SQLTableLayout],
        dialect: any SQLDialect
    ) throws -> (sql: String, bindings: [SQLValue]) {
        let clause = try condition(for: predicate, entity: entity, layouts: layouts, dialect: dialect)
        return (clause.sql, clause.bindings)
    }

    /// `whereClause(for:entity:layouts:dialect:)`, and whether the condition reads rows other than the one it
    /// tests (a related model's values, a relationship's members): each such read is a subquery on an alias.
    package static func condition<T: PersistentModel>(
        for predicate: Predicate<T>,
        entity: Schema.Entity,
        layouts: [String: SQLTableLayout],
        dialect: any SQLDialect
    ) throws -> (sql: String, bindings: [SQLValue], readsOtherRows: Bool) {
        var state = PredicateTranslation(entity: entity, layouts: layouts, dialect: dialect)
        state.variables[predicate.variable.key] = .model(
            ModelReference(entity: entity, qualifier: dialect.quoted(entity.tableName), join: nil)
        )
        let sql = try state.scalar(predicate.expression)
        return (sql, state.bindings, state.aliasCount > 0)
    }

    // MARK: - Translating Children

    /// Translates a child expression.
    mutating func translate(_ expression: Any) throws -> SQLFragment {
        guard let node = expression as? any SQLTranslatable else {
            throw UnsupportedPredicateNode(reason: "\(type(of: expression)) has no SQL form")
        }
        return try node.translate(into: &self)
    }

    /// Translates a child expression that must be a value; a model becomes its primary key.
    mutating func scalar(_ expression: Any) throws -> String {
        try scalar(of: translate(expression))
    }

    /// `(lhs op rhs)` over two child expressions, for an operator that every SQL store spells the same way.
    mutating func infix(_ lhs: Any, _ op: String, _ rhs: Any) throws -> SQLFragment {
        .scalar("(\(try scalar(lhs)) \(op) \(try scalar(rhs)))")
    }

    /// `(lhs op rhs)` over two child expressions compared as Swift compares values of `type`.
    mutating func comparison(_ lhs: Any, _ comparison: SQLComparison, _ rhs: Any, of type: Any.Type) throws
        -> SQLFragment
    {
        let left = try scalar(lhs)
        let right = try scalar(rhs)
        return .scalar("(\(dialect.comparison(left, comparison, right, asStrings: comparesAsStrings(type))))")
    }

    /// `(lhs op rhs)` over two translated fragments compared as Swift compares values of `type`.
    mutating func comparison(
        of lhs: SQLFragment, _ comparison: SQLComparison, _ rhs: SQLFragment, of type: Any.Type
    ) throws -> SQLFragment {
        let left = try scalar(of: lhs)
        let right = try scalar(of: rhs)
        return .scalar("(\(dialect.comparison(left, comparison, right, asStrings: comparesAsStrings(type))))")
    }

    /// A Swift operation on child expressions, in the dialect's SQL.
    mutating func call(_ operation: SQLSwiftOperation, _ arguments: Any...) throws -> SQLFragment {
        .scalar(try dialect.expression(for: operation, try arguments.map { try scalar($0) }))
    }

    /// The SQL value of a translated fragment.
    mutating func scalar(of fragment: SQLFragment) throws -> String {
        switch fragment {
        case .scalar(let sql): return sql
        case .model(let reference): return primaryKey(of: reference)
        case .collection: throw UnsupportedPredicateNode(reason: "a to-many relationship is not a value")
        case .composite: throw UnsupportedPredicateNode(reason: "whole structures are compared in memory")
        }
    }

    // MARK: - Variables and Bindings

    /// Adds a bound value and returns its placeholder.
    mutating func bind(_ value: SQLValue, kind: SQLColumnKind?) -> String {
        bindings.append(value)
        return dialect.placeholder(bindings.count, kind: kind)
    }

    /// A fresh table alias for a subquery.
    mutating func makeAlias() -> String {
        aliasCount += 1
        return "a\(aliasCount)"
    }

    /// What a closure variable stands for.
    func fragment(for variable: PredicateExpressions.VariableID) throws -> SQLFragment {
        guard let fragment = variables[variable] else {
            throw UnsupportedPredicateNode(reason: "a closure variable is used outside the expression that binds it")
        }
        return fragment
    }

    /// Binds a closure variable for the translation of its closure's body.
    mutating func bindVariable(_ variable: PredicateExpressions.VariableID, to fragment: SQLFragment) {
        variables[variable] = fragment
    }

    // MARK: - Models and Columns

    /// The layout of an entity's table, when it is in this store.
    func layout(of entity: Schema.Entity) throws -> SQLTableLayout {
        guard let layout = layouts[entity.name] else {
            throw UnsupportedPredicateNode(reason: "\(entity.name) is stored in another store")
        }
        return layout
    }

    /// The value of one column of a model: qualified for the fetched row, a scalar subquery for a related one.
    mutating func column(_ name: String, of reference: ModelReference) -> String {
        if let qualifier = reference.qualifier {
            let column = "\(qualifier).\(dialect.quoted(name))"
            // A model narrowed by `as?` is nil when the row is of another class.
            guard let condition = reference.typeCondition else { return column }
            return "(CASE WHEN \(condition) THEN \(column) ELSE NULL END)"
        }
        let alias = makeAlias()
        return
            "(SELECT \(alias).\(dialect.quoted(name)) FROM \(dialect.quoted(reference.entity.tableName)) AS \(alias) "
            + "WHERE \(reference.join!(alias)))"
    }

    /// The primary key of a model, which is NULL when a to-one relationship holds no model.
    mutating func primaryKey(of reference: ModelReference) -> String {
        column(SQLTableLayout.primaryKey, of: reference)
    }

    /// A member of a model reached through a key path: an attribute's column, or a relationship.
    mutating func member(_ keyPath: AnyKeyPath, of reference: ModelReference) throws -> SQLFragment {
        let entity = reference.entity
        guard let index = entity.indexIfPersisted(keyPath) else {
            throw UnsupportedPredicateNode(reason: "\(keyPath) is not a stored property of \(entity.name)")
        }
        let property = entity.persistedProperties[index]
        guard let info = property.relationshipInfo else {
            let layout = try layout(of: entity)
            if case .composite(let codec)? = property.codec?.unwrappedCodec {
                let isOptional: Bool
                if case .optional? = property.codec { isOptional = true } else { isOptional = false }
                return .composite(
                    CompositeReference(
                        model: reference,
                        property: property,
                        codec: codec,
                        prefix: [],
                        presenceColumn: isOptional ? property.name : nil
                    )
                )
            }
            guard let range = layout.columnRangeByProperty[index], range.count == 1 else {
                throw UnsupportedPredicateNode(reason: "\(entity.name).\(property.name) has no single column")
            }
            switch property.codec?.unwrappedCodec {
            case .json?: throw UnsupportedPredicateNode(reason: "\(entity.name).\(property.name) is stored as JSON")
            case .transformed?:
                throw UnsupportedPredicateNode(
                    reason: "\(entity.name).\(property.name) is stored through a transformer")
            default: break
            }
            return .scalar(column(layout.columns[range.lowerBound].name, of: reference))
        }
        let destination = info.destination!
        _ = try layout(of: destination)
        let ownerKey = primaryKey(of: reference)
        let dialect = dialect
        let key = dialect.quoted(SQLTableLayout.primaryKey)
        switch info.storage {
        case .foreignKey(let name):
            let foreignKey = column(name, of: reference)
            return .model(ModelReference(entity: destination, qualifier: nil) { "\($0).\(key) = \(foreignKey)" })
        case .inverseForeignKey(let name):
            let membership = { (alias: String) in "\(alias).\(dialect.quoted(name)) = \(ownerKey)" }
            if info.isToMany { return .collection(CollectionReference(entity: destination, membership: membership)) }
            return .model(ModelReference(entity: destination, qualifier: nil, join: membership))
        case .joinTable(let table, let ownerColumn, let targetColumn):
            let linkAlias = makeAlias()
            let (link, owner, target) = (
                dialect.quoted(table), dialect.quoted(ownerColumn), dialect.quoted(targetColumn)
            )
            let membership = { (alias: String) in
                "\(alias).\(key) IN (SELECT \(linkAlias).\(target) FROM \(link) AS \(linkAlias) "
                    + "WHERE \(linkAlias).\(owner) = \(ownerKey))"
            }
            return .collection(CollectionReference(entity: destination, membership: membership))
        }
    }

    // MARK: - Classes

    /// An SQL condition that a model is an instance of a model class (or of one of its subclasses).
    func isInstance(_ reference: ModelReference, of desired: Any.Type) throws -> String {
        guard let desiredType = desired as? any PersistentModel.Type else {
            throw UnsupportedPredicateNode(reason: "a type check against \(desired), which is not a model")
        }
        let desiredEntity = EntityRegistry.shared.entity(forType: desiredType)
        guard let qualifier = reference.qualifier else {
            throw UnsupportedPredicateNode(reason: "type checks on related models run in memory")
        }
        guard desiredEntity.tableName == reference.entity.tableName else { return dialect.literal(false) }
        guard try layout(of: reference.entity).typeColumnPosition != nil else { return dialect.literal(true) }
        let names = desiredEntity.hierarchyNames.map(dialect.stringLiteral)
        return "(\(qualifier).\(dialect.quoted(SQLTableLayout.typeColumn)) IN (\(names.joined(separator: ", "))))"
    }

    // MARK: - Values

    /// The SQL value of a captured or literal value.
    static func sqlValue(_ value: Any) throws -> SQLValue {
        try typedSQLValue(value).value
    }

    /// A captured value's SQL value and the kind of column that holds such values, which a dialect that types its
    /// placeholders writes (a `Bool` is the integer 0 or 1 but compares as a boolean); the kind is nil for `nil`.
    static func typedSQLValue(_ value: Any) throws -> (value: SQLValue, kind: SQLColumnKind?) {
        if let optional = value as? any OptionalValue {
            guard let wrapped = optional.wrappedAny else { return (.null, nil) }
            return try typedSQLValue(wrapped)
        }
        if let model = value as? any PersistentModel {
            guard let key = model.persistentModelID.primaryKey else {
                throw UnsupportedPredicateNode(reason: "an unsaved model has no row to compare with")
            }
            return (.integer(key), .integer)
        }
        guard let codec = ValueCodec.make(for: type(of: value)) else {
            throw UnsupportedPredicateNode(reason: "values of type \(type(of: value)) have no SQL form")
        }
        switch codec {
        case .json, .composite: throw UnsupportedPredicateNode(reason: "structured values are compared in memory")
        default: return (try codec.encode(value), codec.columnKind)
        }
    }
}
