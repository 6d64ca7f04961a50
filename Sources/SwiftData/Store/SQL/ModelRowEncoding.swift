/// Where a save puts the SQL values of a row's columns, in column order: straight into a statement's parameters
/// when it writes the row, or into an array when it compares values in memory.
package protocol ColumnValueSink {
    /// Appends the value of the next column.
    mutating func append(_ value: SQLValue) throws
}

extension ColumnValueSink {
    /// Appends the values of the next columns.
    package mutating func append(contentsOf values: some Sequence<SQLValue>) throws {
        for value in values { try append(value) }
    }
}

extension Array: ColumnValueSink where Element == SQLValue {}

extension ModelStorage {
    /// The column value of an attribute that its codec encodes straight from its slot, kept in the row: most
    /// attributes. Nil for any other property, whose values `appendColumnValues(of:to:keyOf:externalValue:)` gives.
    package final func slotEncodedValue(of property: Schema.Entity.Property) -> SQLValue? {
        guard !property.usesExternalStorage else { return nil }
        return property.codec?.encodedValue(inSlot: property.index, of: values)
    }

    /// Appends the SQL values of a property's columns in this model: an attribute's (several for a composite), or
    /// the primary key of a to-one relationship's target, which `keyOf` gives (nil for a target without one).
    /// `externalValue` gives the column value of an external-storage attribute's bytes, or nil to keep them in the
    /// row.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the entity when a required attribute has no value
    ///   or a value cannot be encoded.
    package final func appendColumnValues(
        of property: Schema.Entity.Property,
        to values: inout some ColumnValueSink,
        keyOf: (ModelStorage) -> Int64?,
        externalValue: (Data) throws -> SQLValue?
    ) throws {
        let storage = self
        if let encoded = slotEncodedValue(of: property) { return try values.append(encoded) }
        let value = storage.values[property.index]
        // The markers are told apart by their metadata: a cast of a model to each marker type cost a call into the
        // run time per marker, for every row a save writes.
        let held = heldType(of: value)
        if held == ModelStorage.NotFetched.self || held == ModelStorage.UnloadedRelationship.self {
            // Only a change writes a column, and a change replaces the marker: this is a bug, not bad data.
            throw SwiftDataError(
                .modelValidationFailure,
                "\(storage.entity.name).\(property.name) was never loaded and cannot be written",
                entityName: storage.entity.name)
        }
        if property.relationshipInfo != nil {
            if held == ModelStorage.ToOneFault.self {
                let key = (value as! ModelStorage.ToOneFault).target?.primaryKey
                try values.append(key.map { .integer($0) } ?? .null)
            } else if held == ModelStorage.Unset.self {
                try values.append(.null)
            } else {
                guard let target = property.relatedModels(in: value).first, !target.storage.isDeleted,
                    let key = keyOf(target.storage)
                else {
                    try values.append(.null)
                    return
                }
                try values.append(.integer(key))
            }
            return
        }
        let codec = property.codec!
        if held == ModelStorage.Unset.self {
            if property.isOptional {
                try values.append(contentsOf: repeatElement(.null, count: codec.columnShapes.count))
                return
            }
            throw SwiftDataError(
                .modelValidationFailure,
                "\(storage.entity.name).\(property.name) has no value",
                entityName: storage.entity.name
            )
        }
        do {
            if property.isComposite {
                try values.append(contentsOf: try codec.encodeColumns(value))
            } else if property.usesExternalStorage, let data = unwrappedValue(value) as? Data,
                let external = try externalValue(data)
            {
                try values.append(external)
            } else {
                try values.append(try codec.encode(value))
            }
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError(
                .modelValidationFailure,
                "\(storage.entity.name).\(property.name) could not be encoded",
                entityName: storage.entity.name,
                underlying: error
            )
        }
    }
}

extension SwiftDataError {
    /// The error of a save that changes a model whose row another context or process deleted since this context
    /// read it: reporting the change as saved would lose it silently.
    package static func rowDeletedElsewhere(_ storage: ModelStorage) -> SwiftDataError {
        SwiftDataError(
            .modelValidationFailure,
            "\(storage.entity.name) \(storage.identifier) has changes, but another context or process deleted its "
                + "row since this context read it; nothing was written. Delete the model or roll back the context "
                + "to resolve the conflict",
            entityName: storage.entity.name
        )
    }
}
