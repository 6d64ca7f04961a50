/// A predicate as an SQL condition over an entity's table, with the values its parameters bind: an SQL store's
/// form of a predicate (see `ModelStore.filter(for:entity:)`).
package struct SQLFilter: StoreFilter {
    package let sql: String
    package let bindings: [SQLValue]
    package var readsOtherRows = true
}

/// Sort descriptors as an SQL `ORDER BY` clause: an SQL store's form of a sort.
package struct SQLSortOrder: StoreSortOrder {
    package let orderBy: String
}

/// An SQL store: one whose tables follow `SQLTableLayout` and whose SQL a dialect writes, so that the shared
/// translators give its forms of predicates and sorts.
package protocol SQLTranslatingStore {
    /// The layouts of the store's entities' tables, by entity name.
    var layouts: [String: SQLTableLayout] { get }
    /// The SQL the store's queries and the translators write.
    var sqlDialect: any SQLDialect { get }
    /// The layout of an entity the store holds.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the entity when the store does not hold it.
    func layout(of entity: Schema.Entity) throws -> SQLTableLayout
}

extension SQLTranslatingStore {
    /// A predicate as the store's SQL.
    ///
    /// - Throws: `StoreCannotEvaluate` when the predicate has no exact SQL form; the fetch evaluates it in memory.
    package func translatedFilter<T: PersistentModel>(for predicate: Predicate<T>, entity: Schema.Entity) throws
        -> SQLFilter
    {
        do {
            let clause = try PredicateTranslation.condition(
                for: predicate, entity: entity, layouts: layouts, dialect: sqlDialect)
            return SQLFilter(sql: clause.sql, bindings: clause.bindings, readsOtherRows: clause.readsOtherRows)
        } catch let node as UnsupportedPredicateNode {
            throw StoreCannotEvaluate(part: .predicate, reason: node.reason)
        }
    }

    /// Sort descriptors as the store's SQL.
    ///
    /// - Throws: `StoreCannotEvaluate` when the sort has no exact SQL form; the fetch sorts in memory.
    package func translatedSortOrder<T: PersistentModel>(for sortBy: [SortDescriptor<T>], entity: Schema.Entity)
        throws -> SQLSortOrder
    {
        do {
            return SQLSortOrder(
                orderBy: try SortTranslation.orderBy(
                    sortBy, entity: entity, layout: layout(of: entity), dialect: sqlDialect))
        } catch let node as UnsupportedPredicateNode {
            throw StoreCannotEvaluate(part: .sort, reason: node.reason)
        }
    }
}

extension ModelStore where Self: SQLTranslatingStore {
    /// True: rows are ordered by their integer primary key where the sort leaves them equal.
    package var ordersIdentifiersByPrimaryKey: Bool { true }

    /// The predicate in the store's SQL (see `translatedFilter(for:entity:)`).
    package func filter<T: PersistentModel>(for predicate: Predicate<T>, entity: Schema.Entity) throws
        -> any StoreFilter
    {
        try translatedFilter(for: predicate, entity: entity)
    }

    /// The sort in the store's SQL (see `translatedSortOrder(for:entity:)`).
    package func sortOrder<T: PersistentModel>(for sortBy: [SortDescriptor<T>], entity: Schema.Entity) throws
        -> any StoreSortOrder
    {
        try translatedSortOrder(for: sortBy, entity: entity)
    }
}
