/// What the rows of one entity in one read share: held once, so a row costs one reference, not one per part.
final class SQLiteRowSource {
    let entity: Schema.Entity
    /// The layout of `entity`, whose column positions the rows' values follow.
    let layout: SQLTableLayout
    let store: SQLiteStore
    /// The properties whose columns were read, or nil when all were.
    let loadedProperties: Set<Int>?
    /// `entity`'s properties and `layout`'s column positions of each, kept apart so a row reads them without a
    /// copy of the layout.
    let properties: [Schema.Entity.Property]
    let ranges: SQLTableLayout.ColumnRanges
    /// What the identifiers of the rows share, and of the targets of each to-one relationship stored in the row
    /// (nil for other properties).
    let scope: IdentifierScope
    let targetScopes: [IdentifierScope?]

    init(entity: Schema.Entity, layout: SQLTableLayout, store: SQLiteStore, loadedProperties: Set<Int>?) {
        self.entity = entity
        self.layout = layout
        self.store = store
        self.loadedProperties = loadedProperties
        self.properties = entity.persistedProperties
        self.ranges = layout.columnRangeByProperty
        self.scope = store.identifierScope(entityName: entity.name)
        self.targetScopes = properties.map { property in
            guard let info = property.relationshipInfo, case .foreignKey = info.storage else { return nil }
            return store.identifierScope(entityName: info.destination.name)
        }
    }
}

/// A row of an entity's table as the context reads it: the statement's current row during a read that decodes
/// without code of the app, or the row's values copied out of the read.
struct SQLiteRow: StoreRow {
    /// The row's primary key.
    let primaryKey: Int64
    let source: SQLiteRowSource
    /// The statement that is on the row, for a row read during the read: column `i` of the layout is the
    /// statement's column `i + 1`. Unmanaged: the read holds the statement, and reading a column through it costs
    /// no reference count (a row is valid only during the read; `retained()` copies its values out).
    private let statement: Unmanaged<SQLiteStatement>?
    /// The row's values, for a row copied out of its read.
    private let fetched: RowValues?

    /// The row a statement reading every column of the source's layout is on.
    init(statement: SQLiteStatement, source: SQLiteRowSource) {
        self.primaryKey = statement.int64(0)
        self.source = source
        self.statement = Unmanaged.passUnretained(statement)
        self.fetched = nil
    }

    /// A fetched row, read as a row of the source's entity (its own class, which the type column named).
    init(_ row: FetchedRow, source: SQLiteRowSource) {
        self.primaryKey = row.primaryKey
        self.source = source
        self.statement = nil
        self.fetched = row.values
    }

    var entity: Schema.Entity { source.entity }

    /// Made when asked for: a read asks once per row.
    var identifier: PersistentIdentifier {
        PersistentIdentifier(scope: source.scope, primaryKey: primaryKey)
    }

    /// The value at a column position of the layout.
    func column(_ position: Int) -> SQLValue {
        if let statement { return statement._withUnsafeGuaranteedRef { $0.column(Int32(position + 1)) } }
        return fetched.unsafelyUnwrapped[position]
    }

    func holdsValue(of property: Schema.Entity.Property) -> Bool {
        !property.isRelationship && source.ranges[property.index] != nil
            && (source.loadedProperties?.contains(property.index) ?? true)
    }

    func value(of property: Schema.Entity.Property) throws -> Any {
        try value(of: property, columns: source.ranges[property.index])
    }

    func slots() throws -> ModelSlots {
        let source = source
        let properties = source.properties
        return try ModelSlots(count: properties.count) { index in
            try value(of: properties[index], columns: source.ranges[index])
        }
    }

    func target(of property: Schema.Entity.Property) throws -> PersistentIdentifier? {
        guard let scope = source.targetScopes[property.index], let range = source.ranges[property.index],
            case .integer(let key) = column(range.lowerBound)
        else { return nil }
        return PersistentIdentifier(scope: scope, primaryKey: key)
    }

    /// A property's value, from the columns at `columns` (nil when it has none).
    private func value(of property: Schema.Entity.Property, columns range: Range<Int>?) throws -> Any {
        if property.isRelationship { return storedRelationship(property, columns: range) }
        guard let range else { return property.unstoredValue }
        if let loaded = source.loadedProperties, !loaded.contains(property.index) { return ModelStorage.NotFetched() }
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

    /// The number of column values the row holds once retained: what its read loaded.
    var heldValueCount: Int { fetched?.count ?? source.layout.columns.count }

    func retained() -> SQLiteRow {
        guard statement != nil else { return self }
        let copied = FetchedRow(
            primaryKey: primaryKey, values: RowValues((0..<source.layout.columns.count).map(column)),
            loadedProperties: source.loadedProperties)
        return SQLiteRow(copied, source: source)
    }

    // MARK: - Internal

    /// A relationship slot's stored state: a fault on the target the row's foreign key names, for a to-one
    /// relationship stored in the row (the target's identifier names this store: the context corrects it for a
    /// target in another store); not loaded for any other.
    private func storedRelationship(_ property: Schema.Entity.Property, columns range: Range<Int>?) -> Any {
        guard let scope = source.targetScopes[property.index], let range else {
            return ModelStorage.UnloadedRelationship()
        }
        guard case .integer(let key) = column(range.lowerBound) else { return ModelStorage.ToOneFault(target: nil) }
        return ModelStorage.ToOneFault(target: PersistentIdentifier(scope: scope, primaryKey: key))
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
