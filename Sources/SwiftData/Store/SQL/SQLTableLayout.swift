/// The columns of one entity's table in an SQL store, in the order `SELECT` returns them after `"_pk"`, and the
/// statements that write its rows, in the store's dialect.
package struct SQLTableLayout: Sendable {
    /// One column: an attribute or the foreign key of a to-one relationship.
    package struct Column: Sendable {
        package let name: String
        package let propertyIndex: Int
        package let sqlType: String
        package let isNullable: Bool
        package let isForeignKey: Bool
    }

    package let tableName: String
    package let columns: [Column]
    /// Column positions (in `columns`) by property index; a composite attribute spans several.
    package let columnRangeByProperty: ColumnRanges

    /// The indexes of the properties that have columns, in column order.
    package let propertyIndexes: [Int]
    /// `INSERT` of the primary key and every column, with parameters in that order.
    package let insertSQL: String
    /// `UPDATE` of every column by primary key (`?1`), the columns' parameters following.
    package let updateAllSQL: String
    /// `UPDATE` of one property's columns by primary key, by property index.
    package let updateSQLByProperty: [Int: String]

    /// The primary key column of every entity table.
    package static let primaryKey = "_pk"

    /// The column that names each row's entity in a table shared by an inheritance hierarchy.
    package static let typeColumn = "_type"
    /// The `propertyIndex` of a column that belongs to another entity of the hierarchy.
    package static let otherEntity = -1
    /// The `propertyIndex` of the type column.
    package static let typeIndex = -2

    /// The position of the type column, for tables shared by a hierarchy.
    package let typeColumnPosition: Int?

    /// The layout of an entity's table. `hierarchy` lists the store's other entities of the same inheritance
    /// hierarchy: they share one table, whose columns are the union of theirs (in the same order for every member)
    /// plus a type column, and each member's layout maps only its own properties.
    package init(entity: Schema.Entity, hierarchy: [Schema.Entity] = [], dialect: any SQLDialect) throws {
        var columns: [Column]
        if hierarchy.isEmpty {
            columns = try Self.ownColumns(of: entity, dialect: dialect)
        } else {
            let members = ([entity] + hierarchy).sorted {
                $0.depth < $1.depth || ($0.depth == $1.depth && $0.name < $1.name)
            }
            columns = [
                Column(
                    name: Self.typeColumn, propertyIndex: Self.typeIndex, sqlType: dialect.columnType(for: .text),
                    isNullable: false,
                    isForeignKey: false)
            ]
            var seen: Set<String> = [Self.typeColumn]
            for member in members {
                for column in try Self.ownColumns(of: member, dialect: dialect) where seen.insert(column.name).inserted
                {
                    let own = entity.property(named: member.persistedProperties[column.propertyIndex].name)
                    columns.append(
                        Column(
                            name: column.name,
                            propertyIndex: own?.index ?? Self.otherEntity,
                            sqlType: column.sqlType,
                            isNullable: column.isNullable || member.superentityType != nil,
                            isForeignKey: column.isForeignKey
                        )
                    )
                }
            }
        }
        self.tableName = entity.tableName
        self.columns = columns
        self.typeColumnPosition = columns.firstIndex { $0.propertyIndex == Self.typeIndex }
        var ranges = ColumnRanges()
        for (position, column) in columns.enumerated() where column.propertyIndex >= 0 {
            let start = ranges[column.propertyIndex]?.lowerBound ?? position
            ranges[column.propertyIndex] = start..<(position + 1)
        }
        self.columnRangeByProperty = ranges
        let propertyIndexes = ranges.map(\.property).sorted { ranges[$0]!.lowerBound < ranges[$1]!.lowerBound }
        self.propertyIndexes = propertyIndexes
        let table = dialect.quoted(entity.tableName)
        let key = dialect.quoted(Self.primaryKey)
        let ownColumns = propertyIndexes.flatMap { columns[ranges[$0]!] }
        var names = [key] + ownColumns.map { dialect.quoted($0.name) }
        var placeholders = (1...names.count).map(dialect.placeholder)
        if typeColumnPosition != nil {
            names.append(dialect.quoted(Self.typeColumn))
            placeholders.append(dialect.stringLiteral(entity.name))
        }
        self.insertSQL =
            "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))"
        func update(_ updated: [Column]) -> String {
            let assignments = updated.enumerated().map { "\(dialect.quoted($1.name)) = \(dialect.placeholder($0 + 2))" }
            return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(key) = \(dialect.placeholder(1))"
        }
        self.updateAllSQL = ownColumns.isEmpty ? "" : update(ownColumns)
        self.updateSQLByProperty = Dictionary(
            uniqueKeysWithValues: ranges.map { ($0.property, update(Array(columns[$0.columns]))) })
    }

    /// The columns of an entity's own properties, in declaration order.
    private static func ownColumns(of entity: Schema.Entity, dialect: any SQLDialect) throws -> [Column] {
        var columns: [Column] = []
        for property in entity.persistedProperties {
            if let info = property.relationshipInfo {
                guard case .foreignKey(let column) = info.storage else { continue }
                columns.append(
                    Column(
                        name: column, propertyIndex: property.index, sqlType: dialect.columnType(for: .integer),
                        isNullable: true,
                        isForeignKey: true)
                )
                continue
            }
            if property.schemaProperty.isTransient { continue }
            guard let codec = property.codec else {
                throw SwiftDataError(
                    .loadIssueModelContainer,
                    "\(entity.name).\(property.name) has type \(property.valueType), which SwiftData cannot store",
                    entityName: entity.name
                )
            }
            for shape in codec.columnShapes {
                columns.append(
                    Column(
                        name: property.name + shape.suffix,
                        propertyIndex: property.index,
                        sqlType: dialect.columnType(for: shape.kind),
                        isNullable: shape.isNullable,
                        isForeignKey: false
                    )
                )
            }
        }
        return columns
    }

    /// `"_pk", "a", "b", …` for `SELECT`.
    package var selectList: String {
        ([Self.primaryKey] + columns.map(\.name)).map(quoted).joined(separator: ", ")
    }

    /// The columns of some of the entity's properties, named, in order: each property's columns, one per field for
    /// a composite attribute. What an index or a uniqueness constraint on the properties covers.
    package func columns(of properties: [String], in entity: Schema.Entity) -> [Column] {
        properties.flatMap { name -> ArraySlice<Column> in
            guard let property = entity.property(named: name), let range = columnRangeByProperty[property.index]
            else { return [] }
            return columns[range]
        }
    }

    /// The names a store's recorded schema gives an index or uniqueness constraint: its properties', or, when one of
    /// them is a composite attribute, its columns'. SQLite stores made before such constraints covered each field's
    /// column recorded the properties: the new names differ from theirs, so they migrate and make the index anew.
    package func recordedNames(of properties: [String], in entity: Schema.Entity) -> [String] {
        let names = columns(of: properties, in: entity).map(\.name)
        return names == properties ? properties : names
    }

    /// The join tables an entity's relationships own (a many-to-many relationship's table belongs to one side).
    package static func joinTables(of entity: Schema.Entity) -> [String] {
        entity.persistedProperties.compactMap {
            guard case .joinTable(let name, let ownerColumn, _) = $0.relationshipInfo?.storage, ownerColumn == "owner"
            else { return nil }
            return name
        }
    }
}

extension SQLTableLayout {
    /// The column positions of each property that has columns, looked up by property index.
    ///
    /// An array indexed by property rather than a dictionary: materialising a row looks up every property, and
    /// hashing each index cost more than reading the row's values.
    package struct ColumnRanges: Sequence, Sendable {
        private var ranges: [Range<Int>?] = []

        /// The column positions of the property at `index`, or nil when it has no columns.
        package subscript(index: Int) -> Range<Int>? {
            get { index < ranges.count ? ranges[index] : nil }
            set {
                if index >= ranges.count { ranges += Array(repeating: nil, count: index + 1 - ranges.count) }
                ranges[index] = newValue
            }
        }

        /// The properties that have columns, in property order, with their column positions.
        package func makeIterator() -> some IteratorProtocol<(property: Int, columns: Range<Int>)> {
            ranges.enumerated().lazy.compactMap { index, range in range.map { (index, $0) } }.makeIterator()
        }
    }
}
