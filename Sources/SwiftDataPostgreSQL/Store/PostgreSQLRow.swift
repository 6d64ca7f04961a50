internal import SwiftData

/// What the rows of one entity in one read share.
final class PostgreSQLRowSource {
    let entity: Schema.Entity
    let layout: SQLTableLayout
    /// The properties whose columns the read asked for, or nil when it read every column (see
    /// `PostgreSQLColumnSelection`).
    let loadedProperties: Set<Int>?
    /// The identifiers' scope of the rows, and of the targets of each to-one relationship stored in the row.
    let scope: IdentifierScope
    let targetScopes: [IdentifierScope?]
    /// True when the rows are read by a custom migration stage (see `PostgreSQLModelStore.isMigrationStore`).
    let isMigrating: Bool

    init(entity: Schema.Entity, layout: SQLTableLayout, store: PostgreSQLModelStore, loadedProperties: Set<Int>?) {
        self.entity = entity
        self.layout = layout
        self.isMigrating = store.isMigrationStore
        self.loadedProperties = loadedProperties
        self.scope = store.identifierScope(entityName: entity.name)
        self.targetScopes = entity.persistedProperties.map { property in
            guard let info = property.relationshipInfo, case .foreignKey = info.storage else { return nil }
            return store.identifierScope(entityName: info.destination.name)
        }
    }
}

/// A row of an entity's table read from PostgreSQL: its key and every column of its layout, NULL in place of those
/// the read left out.
struct PostgreSQLRow: StoreRow {
    let primaryKey: Int64
    let source: PostgreSQLRowSource
    /// The row's columns, in layout order.
    let columns: ArraySlice<SQLValue>

    var entity: Schema.Entity { source.entity }

    var identifier: PersistentIdentifier { PersistentIdentifier(scope: source.scope, primaryKey: primaryKey) }

    /// False for an attribute the read left out, as on SQLite: the context then loads it when it is first read.
    func holdsValue(of property: Schema.Entity.Property) -> Bool {
        !property.isRelationship && source.layout.columnRangeByProperty[property.index] != nil
            && (source.loadedProperties?.contains(property.index) ?? true)
    }

    func value(of property: Schema.Entity.Property) throws -> Any {
        let range = source.layout.columnRangeByProperty[property.index]
        if property.isRelationship {
            guard let scope = source.targetScopes[property.index], let range else {
                return ModelStorage.UnloadedRelationship()
            }
            guard case .integer(let key) = column(range.lowerBound) else { return ModelStorage.ToOneFault(target: nil) }
            return ModelStorage.ToOneFault(target: PersistentIdentifier(scope: scope, primaryKey: key))
        }
        guard let range, let codec = property.codec else { return property.unstoredValue }
        if let loaded = source.loadedProperties, !loaded.contains(property.index) { return ModelStorage.NotFetched() }
        do {
            if range.count == 1 { return try codec.decodeColumn(column(range.lowerBound)) }
            return try codec.decodeColumns(ArraySlice(range.map(column)))
        } catch  where source.isMigrating && range.allSatisfy({ column($0) == .null }) {
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

    func target(of property: Schema.Entity.Property) throws -> PersistentIdentifier? {
        guard let scope = source.targetScopes[property.index],
            let range = source.layout.columnRangeByProperty[property.index],
            case .integer(let key) = column(range.lowerBound)
        else { return nil }
        return PersistentIdentifier(scope: scope, primaryKey: key)
    }

    func retained() -> PostgreSQLRow { self }

    private func column(_ position: Int) -> SQLValue {
        columns[columns.startIndex + position]
    }
}
