/// A node of a predicate's expression tree that has an SQL form.
///
/// Each `PredicateExpressions` type SwiftData can push down conforms in one of the `PredicateTranslation+*.swift`
/// files. A node that cannot be expressed throws `UnsupportedPredicateNode`, and the fetch then evaluates the
/// whole predicate in memory, so results never depend on what SQL can do.
protocol SQLTranslatable {
    func translate(into state: inout PredicateTranslation) throws -> String
}

/// Why a predicate or sort could not be pushed down to SQL.
struct UnsupportedPredicateNode: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// The state of translating one predicate: the entity it filters and the values bound so far.
struct PredicateTranslation {
    let entity: Schema.Entity
    let layout: SQLiteTableLayout
    private(set) var bindings: [SQLiteValue] = []

    init(entity: Schema.Entity, layout: SQLiteTableLayout) {
        self.entity = entity
        self.layout = layout
    }

    /// Adds a bound value and returns its placeholder (`?n`).
    mutating func bind(_ value: SQLiteValue) -> String {
        bindings.append(value)
        return "?\(bindings.count)"
    }

    /// Translates a child expression.
    mutating func translate(_ expression: Any) throws -> String {
        guard let node = expression as? any SQLTranslatable else {
            throw UnsupportedPredicateNode(reason: "\(type(of: expression)) has no SQL form")
        }
        return try node.translate(into: &self)
    }

    /// The SQL `WHERE` clause and its bindings for a predicate.
    static func whereClause<T: PersistentModel>(
        for predicate: Predicate<T>,
        entity: Schema.Entity,
        layout: SQLiteTableLayout
    ) throws -> (sql: String, bindings: [SQLiteValue]) {
        var state = PredicateTranslation(entity: entity, layout: layout)
        let sql = try state.translate(predicate.expression)
        return (sql, state.bindings)
    }

    /// The column of a stored attribute or to-one foreign key reached from the predicate's variable.
    func column(for keyPath: AnyKeyPath) throws -> (sql: String, property: Schema.Entity.Property) {
        guard let index = entity.indexIfPersisted(keyPath), layout.columnRangeByProperty[index]?.count == 1 else {
            throw UnsupportedPredicateNode(reason: "\(keyPath) is not a stored column of \(entity.name)")
        }
        let property = entity.storedProperties[index]
        return (quoted(property.name), property)
    }

    /// The SQL value of a captured or literal value.
    static func sqlValue(_ value: Any) throws -> SQLiteValue {
        if let optional = value as? any OptionalValue {
            guard let wrapped = optional.wrappedAny else { return .null }
            return try sqlValue(wrapped)
        }
        if let model = value as? any PersistentModel {
            guard let key = model.persistentModelID.primaryKey else {
                throw UnsupportedPredicateNode(reason: "an unsaved model has no row to compare with")
            }
            return .integer(key)
        }
        guard let codec = ValueCodec.make(for: type(of: value)) else {
            throw UnsupportedPredicateNode(reason: "values of type \(type(of: value)) have no SQL form")
        }
        if case .json = codec { throw UnsupportedPredicateNode(reason: "JSON-encoded values are compared in memory") }
        return try codec.encode(value)
    }
}
