package import SwiftData

/// The columns of an entity's table a read asks the server for: every column, or, for a read of some properties
/// (`StoreReadRequest.properties`), their columns and those every read loads.
///
/// As on SQLite, a read of some properties also reads every to-one relationship's key column (a model's to-one
/// relationships are always loaded) and, in a hierarchy's table, the type column that says which class each row is
/// of. The server sends no other column: a row holds NULL in its place, and reports its attribute as not loaded
/// (`PostgreSQLRow.holdsValue(of:)`), so the context loads it when it is first read.
package struct PostgreSQLColumnSelection {
    /// The positions in the layout of the columns read, in order, or nil when every column is.
    let positions: [Int]?
    /// The indexes of the properties whose columns are read, or nil when every one's are.
    let loadedProperties: Set<Int>?

    /// The columns a read of `properties` (nil for every property) selects from a table of `layout`.
    init(layout: SQLTableLayout, properties: Set<Int>?) {
        guard let properties else {
            positions = nil
            loadedProperties = nil
            return
        }
        let positions = layout.columns.indices.filter { position in
            let column = layout.columns[position]
            return column.isForeignKey || column.propertyIndex == SQLTableLayout.typeIndex
                || properties.contains(column.propertyIndex)
        }
        self.positions = positions
        loadedProperties = Set(positions.map { layout.columns[$0].propertyIndex }).union(properties)
    }

    /// The select list: the key, then the columns read, in layout order.
    func selectList(of layout: SQLTableLayout, dialect: PostgreSQLDialect) -> String {
        let names = positions.map { $0.map { layout.columns[$0].name } } ?? layout.columns.map(\.name)
        return ([SQLTableLayout.primaryKey] + names).map(dialect.quoted).joined(separator: ", ")
    }

    /// The select list a read of `properties` makes from the table of an entity that shares it with no other: what
    /// the store asks the server for, for tests that check which columns a read sends.
    ///
    /// - Throws: what `SQLTableLayout.init(entity:hierarchy:dialect:)` throws for an entity it cannot lay out.
    package static func selectList(of entity: Schema.Entity, properties: Set<Int>?) throws -> String {
        let dialect = PostgreSQLDialect()
        let layout = try SQLTableLayout(entity: entity, dialect: dialect)
        return Self(layout: layout, properties: properties).selectList(of: layout, dialect: dialect)
    }
}
