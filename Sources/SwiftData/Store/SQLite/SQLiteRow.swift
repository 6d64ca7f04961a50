/// What the rows of one entity in one read share: held once, so a row costs one reference, not one per part.
final class SQLiteRowSource {
    let entity: Schema.Entity
    /// The layout of `entity`, whose column positions the rows' values follow.
    let layout: SQLiteTableLayout
    let store: SQLiteStore
    /// The properties whose columns were read, or nil when all were.
    let loadedProperties: Set<Int>?

    init(entity: Schema.Entity, layout: SQLiteTableLayout, store: SQLiteStore, loadedProperties: Set<Int>?) {
        self.entity = entity
        self.layout = layout
        self.store = store
        self.loadedProperties = loadedProperties
    }
}

/// A row of an entity's table as the context reads it: the statement's current row during a read that decodes
/// without code of the app, or the row's values copied out of the read.
struct SQLiteRow: StoreRow {
    private enum Values {
        /// The statement is on the row: column `i` of the layout is the statement's column `i + 1`.
        case statement(SQLiteStatement)
        case fetched(RowValues)
    }

    let identifier: PersistentIdentifier
    let source: SQLiteRowSource
    private let values: Values

    /// The row a statement reading every column of the source's layout is on.
    init(statement: SQLiteStatement, source: SQLiteRowSource) {
        self.identifier = source.store.identifier(entityName: source.entity.name, primaryKey: statement.int64(0))
        self.source = source
        self.values = .statement(statement)
    }

    /// A fetched row, read as a row of the source's entity (its own class, which the type column named).
    init(_ row: FetchedRow, source: SQLiteRowSource) {
        self.identifier = source.store.identifier(entityName: source.entity.name, primaryKey: row.primaryKey)
        self.source = source
        self.values = .fetched(row.values)
    }

    var entity: Schema.Entity { source.entity }
    private var layout: SQLiteTableLayout { source.layout }
    private var loadedProperties: Set<Int>? { source.loadedProperties }

    /// The row's primary key.
    var primaryKey: Int64 { identifier.primaryKey! }

    /// The value at a column position of the layout.
    func column(_ position: Int) -> SQLValue {
        switch values {
        case .statement(let statement): statement.column(Int32(position + 1))
        case .fetched(let values): values[position]
        }
    }

    func holdsValue(of property: Schema.Entity.Property) -> Bool {
        !property.isRelationship && layout.columnRangeByProperty[property.index] != nil
            && (loadedProperties?.contains(property.index) ?? true)
    }

    func value(of property: Schema.Entity.Property) throws -> Any {
        if property.isRelationship { return storedRelationship(property) }
        guard let range = layout.columnRangeByProperty[property.index] else { return property.unstoredValue }
        guard loadedProperties?.contains(property.index) ?? true else { return ModelStorage.NotFetched() }
        // One column, the common case, is decoded without an array of it.
        if range.count == 1 {
            let value = column(range.lowerBound)
            return try decoding(property, isNull: value == .null) { try property.codec!.decodeColumn(value) }
        }
        let values = ArraySlice(range.map(column))
        return try decoding(property, isNull: values.allSatisfy { $0 == .null }) {
            try property.codec!.decodeColumns(values)
        }
    }

    func slots() throws -> ModelSlots {
        let properties = source.entity.persistedProperties
        return try ModelSlots(count: properties.count) { try value(of: properties[$0]) }
    }

    func retained() -> SQLiteRow {
        guard case .statement = values else { return self }
        let copied = FetchedRow(
            primaryKey: primaryKey, values: RowValues((0..<layout.columns.count).map(column)),
            loadedProperties: loadedProperties)
        return SQLiteRow(copied, source: source)
    }

    // MARK: - Internal

    /// A relationship slot's stored state: a fault on the target the row's foreign key names, for a to-one
    /// relationship stored in the row (the target's identifier names this store: the context corrects it for a
    /// target in another store); not loaded for any other.
    private func storedRelationship(_ property: Schema.Entity.Property) -> Any {
        guard let info = property.relationshipInfo, case .foreignKey = info.storage,
            let range = layout.columnRangeByProperty[property.index]
        else { return ModelStorage.UnloadedRelationship() }
        guard case .integer(let key) = column(range.lowerBound) else { return ModelStorage.ToOneFault(target: nil) }
        return ModelStorage.ToOneFault(
            target: source.store.identifier(entityName: info.destination.name, primaryKey: key))
    }

    /// What `decode` gives, with its failures explained: `isNull` tells that every column of the property is NULL.
    private func decoding(
        _ property: Schema.Entity.Property, isNull: @autoclosure () -> Bool, _ decode: () throws -> Any
    ) throws -> Any {
        do {
            return try decode()
        } catch  where source.store.isMigrationStore && isNull() {
            // A required property a custom migration stage has not filled yet: it has no value until didMigrate
            // sets one.
            return ModelStorage.Unset()
        } catch {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the stored value of \(entity.name).\(property.name) does not fit its type \(property.valueType)",
                entityName: entity.name,
                underlying: error
            )
        }
    }
}
