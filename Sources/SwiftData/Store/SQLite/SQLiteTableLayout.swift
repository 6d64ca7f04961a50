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
    let columnRangeByProperty: [Int: Range<Int>]

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

    init(entity: Schema.Entity) throws {
        var columns: [Column] = []
        for property in entity.storedProperties {
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
                        sqlType: shape.sqlType,
                        isNullable: shape.isNullable,
                        isForeignKey: false
                    )
                )
            }
        }
        self.tableName = entity.tableName
        self.columns = columns
        var ranges: [Int: Range<Int>] = [:]
        for (position, column) in columns.enumerated() {
            let start = ranges[column.propertyIndex]?.lowerBound ?? position
            ranges[column.propertyIndex] = start..<(position + 1)
        }
        self.columnRangeByProperty = ranges
        self.propertyIndexes = ranges.keys.sorted { ranges[$0]!.lowerBound < ranges[$1]!.lowerBound }
        let table = quoted(entity.tableName)
        let key = quoted(Self.primaryKey)
        let names = [key] + columns.map { quoted($0.name) }
        let placeholders = (1...names.count).map { "?\($0)" }.joined(separator: ", ")
        self.insertSQL = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(placeholders))"
        func update(_ range: Range<Int>) -> String {
            let assignments = range.enumerated().map { "\(quoted(columns[$1].name)) = ?\($0 + 2)" }
            return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(key) = ?1"
        }
        self.updateAllSQL = columns.isEmpty ? "" : update(0..<columns.count)
        self.updateSQLByProperty = ranges.mapValues(update)
    }

    /// `"_pk", "a", "b", …` for `SELECT`.
    var selectList: String {
        ([Self.primaryKey] + columns.map(\.name)).map(quoted).joined(separator: ", ")
    }

    /// The `CREATE TABLE` statement and its indexes.
    func createStatements(entity: Schema.Entity) -> [String] {
        let definitions =
            ["\(quoted(Self.primaryKey)) INTEGER PRIMARY KEY AUTOINCREMENT"]
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
