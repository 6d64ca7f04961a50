/// The columns of one entity's table, in the order `SELECT` returns them after `"_pk"`.
struct SQLiteTableLayout: Sendable {
    /// One column: an attribute or the foreign key of a to-one relationship.
    struct Column: Sendable {
        let name: String
        let propertyIndex: Int
        let sqlType: String
        let isNullable: Bool
        let isForeignKey: Bool
    }

    let tableName: String
    let columns: [Column]
    /// Column positions (in `columns`) by property index; a composite attribute spans several.
    let columnRangeByProperty: ColumnRanges

    /// The indexes of the properties that have columns, in column order.
    let propertyIndexes: [Int]
    /// `INSERT` of the primary key and every column, with parameters in that order.
    let insertSQL: String
    /// `UPDATE` of every column by primary key (`?1`), the columns' parameters following.
    let updateAllSQL: String
    /// `UPDATE` of one property's columns by primary key, by property index.
    let updateSQLByProperty: [Int: String]

    /// The primary key column of every entity table.
    static let primaryKey = "_pk"

    /// The column that names each row's entity in a table shared by an inheritance hierarchy.
    static let typeColumn = "_type"
    /// The `propertyIndex` of a column that belongs to another entity of the hierarchy.
    static let otherEntity = -1
    /// The `propertyIndex` of the type column.
    static let typeIndex = -2

    /// The position of the type column, for tables shared by a hierarchy.
    let typeColumnPosition: Int?

    /// The layout of an entity's table. `hierarchy` lists the store's other entities of the same inheritance
    /// hierarchy: they share one table, whose columns are the union of theirs (in the same order for every member)
    /// plus a type column, and each member's layout maps only its own properties.
    init(entity: Schema.Entity, hierarchy: [Schema.Entity] = []) throws {
        var columns: [Column]
        if hierarchy.isEmpty {
            columns = try Self.ownColumns(of: entity)
        } else {
            let members = ([entity] + hierarchy).sorted {
                $0.depth < $1.depth || ($0.depth == $1.depth && $0.name < $1.name)
            }
            columns = [
                Column(
                    name: Self.typeColumn, propertyIndex: Self.typeIndex, sqlType: "TEXT", isNullable: false,
                    isForeignKey: false)
            ]
            var seen: Set<String> = [Self.typeColumn]
            for member in members {
                for column in try Self.ownColumns(of: member) where seen.insert(column.name).inserted {
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
        let table = quoted(entity.tableName)
        let key = quoted(Self.primaryKey)
        let ownColumns = propertyIndexes.flatMap { columns[ranges[$0]!] }
        var names = [key] + ownColumns.map { quoted($0.name) }
        var placeholders = (1...names.count).map { "?\($0)" }
        if typeColumnPosition != nil {
            names.append(quoted(Self.typeColumn))
            placeholders.append(sqlStringLiteral(entity.name))
        }
        self.insertSQL =
            "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))"
        func update(_ updated: [Column]) -> String {
            let assignments = updated.enumerated().map { "\(quoted($1.name)) = ?\($0 + 2)" }
            return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(key) = ?1"
        }
        self.updateAllSQL = ownColumns.isEmpty ? "" : update(ownColumns)
        self.updateSQLByProperty = Dictionary(
            uniqueKeysWithValues: ranges.map { ($0.property, update(Array(columns[$0.columns]))) })
    }

    /// The columns of an entity's own properties, in declaration order.
    private static func ownColumns(of entity: Schema.Entity) throws -> [Column] {
        var columns: [Column] = []
        for property in entity.persistedProperties {
            if let info = property.relationshipInfo {
                guard case .foreignKey(let column) = info.storage else { continue }
                columns.append(
                    Column(
                        name: column, propertyIndex: property.index, sqlType: "INTEGER", isNullable: true,
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
                        sqlType: SQLiteDialect().columnType(for: shape.kind),
                        isNullable: shape.isNullable,
                        isForeignKey: false
                    )
                )
            }
        }
        return columns
    }

    /// `"_pk", "a", "b", …` for `SELECT`.
    var selectList: String {
        ([Self.primaryKey] + columns.map(\.name)).map(quoted).joined(separator: ", ")
    }

    /// The `CREATE TABLE` statement and its indexes.
    func createStatements(entity: Schema.Entity) -> [String] {
        let definitions =
            [SQLiteKeySequence.primaryKeyDefinition]
            + columns.map { "\(quoted($0.name)) \($0.sqlType)\($0.isNullable ? "" : " NOT NULL")" }
        var statements = ["CREATE TABLE \(quoted(tableName)) (\(definitions.joined(separator: ", ")))"]
        for column in columns where column.isForeignKey {
            statements.append(
                "CREATE INDEX \(quoted("\(tableName)_\(column.name)_index")) ON \(quoted(tableName)) (\(quoted(column.name)))"
            )
        }
        for index in entity.indices {
            let name = "\(tableName)_\(index.joined(separator: "_"))_index"
            let columnList = index.map(quoted).joined(separator: ", ")
            statements.append("CREATE INDEX \(quoted(name)) ON \(quoted(tableName)) (\(columnList))")
        }
        for constraint in entity.uniquenessConstraints {
            let name = "\(tableName)_\(constraint.joined(separator: "_"))_unique"
            let columnList = constraint.map(quoted).joined(separator: ", ")
            statements.append("CREATE UNIQUE INDEX \(quoted(name)) ON \(quoted(tableName)) (\(columnList))")
        }
        if let spotlight = SpotlightIndex(entity: entity) {
            statements.append("DROP TABLE IF EXISTS \(quoted(spotlight.tableName))")
            statements.append(spotlight.createSQL)
            statements.append(spotlight.fillSQL)
        }
        return statements
    }
}

extension SQLiteTableLayout {
    /// The column positions of each property that has columns, looked up by property index.
    ///
    /// An array indexed by property rather than a dictionary: materialising a row looks up every property, and
    /// hashing each index cost more than reading the row's values.
    struct ColumnRanges: Sequence, Sendable {
        private var ranges: [Range<Int>?] = []

        /// The column positions of the property at `index`, or nil when it has no columns.
        subscript(index: Int) -> Range<Int>? {
            get { index < ranges.count ? ranges[index] : nil }
            set {
                if index >= ranges.count { ranges += Array(repeating: nil, count: index + 1 - ranges.count) }
                ranges[index] = newValue
            }
        }

        /// The properties that have columns, in property order, with their column positions.
        func makeIterator() -> some IteratorProtocol<(property: Int, columns: Range<Int>)> {
            ranges.enumerated().lazy.compactMap { index, range in range.map { (index, $0) } }.makeIterator()
        }
    }
}
