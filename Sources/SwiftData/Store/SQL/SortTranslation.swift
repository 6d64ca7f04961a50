/// Translates sort descriptors to an SQL `ORDER BY` clause.
package enum SortTranslation {
    /// The `ORDER BY` clause in a store's dialect, ending with the primary key so ties keep store order as Swift's
    /// stable sort does.
    ///
    /// - Throws: `UnsupportedPredicateNode` when a descriptor sorts by something that is not a stored column, or
    ///   compares strings in a way the dialect cannot reproduce exactly.
    package static func orderBy<T: PersistentModel>(
        _ descriptors: [SortDescriptor<T>],
        entity: Schema.Entity,
        layout: SQLTableLayout,
        dialect: any SQLDialect
    ) throws -> String {
        var terms: [String] = []
        for descriptor in descriptors {
            guard let keyPath = descriptor.keyPath,
                let (index, localized) = entity.indexIfPersisted(keyPath).map({ ($0, nil) })
                    ?? LocalizedStringOrder.sortedProperty(keyPath, of: entity),
                layout.columnRangeByProperty[index]?.count == 1
            else {
                throw UnsupportedPredicateNode(reason: "sort key path is not a stored column of \(entity.name)")
            }
            if let comparator = descriptor.stringComparator, comparator != .lexical {
                throw UnsupportedPredicateNode(reason: "localized string sorting runs in memory")
            }
            let property = entity.persistedProperties[index]
            if let localized {
                guard property.codec?.columnKind == .string,
                    let term = dialect.localizedOrderingTerm(
                        dialect.quoted(property.name), ascending: descriptor.order == .forward, order: localized)
                else {
                    throw UnsupportedPredicateNode(reason: "this localized string sort runs in memory")
                }
                terms.append(term)
                continue
            }
            if case .json? = property.codec?.unwrappedCodec {
                throw UnsupportedPredicateNode(reason: "\(property.name) is stored as JSON")
            }
            if case .transformed? = property.codec?.unwrappedCodec {
                throw UnsupportedPredicateNode(reason: "\(property.name) is stored through a transformer")
            }
            if case .decimal? = property.codec?.unwrappedCodec {
                throw UnsupportedPredicateNode(reason: "decimals are sorted in memory")
            }
            terms.append(
                dialect.orderingTerm(
                    dialect.quoted(property.name), ascending: descriptor.order == .forward,
                    asStrings: property.codec?.columnKind == .string))
        }
        terms.append(dialect.quoted(SQLTableLayout.primaryKey))
        return terms.joined(separator: ", ")
    }
}
