internal import Foundation

extension Schema.Entity.Property {
    /// The value an attribute reads when its row is gone and its stored value was never read: its declared
    /// default; else `nil` for an optional; else the empty value of its type, the value its columns decode to when
    /// they hold 0, 0.0, an empty string or an empty blob (0, `false`, `""`, empty `Data`, the reference date, a
    /// zero `Decimal`, the all-zero `UUID`, an empty array or dictionary stored as JSON, a composite of such
    /// fields). Nil when the type has no such value (a `URL`, an enumeration with no case for the empty raw value,
    /// a transformed value): a fetch with `propertiesToFetch` always reads such attributes, so the value is known.
    ///
    /// Computed on each use: it is needed only when a row is gone, and once per left-out attribute of a partial
    /// fetch.
    var placeholderValue: Any? {
        if let defaultValue { return defaultValue }
        if isOptional { return noneValue }
        guard let codec, !isRelationship else { return nil }
        let empties = codec.columnShapes.map { shape -> SQLiteValue in
            if shape.isNullable { return .null }
            switch shape.sqlType.prefix(4) {
            case "INTE": return .integer(0)
            case "REAL": return .real(0)
            case "BLOB": return .blob([])
            default: return .text("")
            }
        }
        if let value = try? codec.decodeColumns(empties[...]) { return value }
        // Types whose empty text is not a value of theirs.
        let alternatives: [String] =
            switch codec {
            case .uuid: [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).uuidString]
            case .decimal: ["0"]
            case .json: ["[]", "{}"]
            default: []
            }
        for text in alternatives {
            if let value = try? codec.decodeColumn(.text(text)) { return value }
        }
        return nil
    }
}
