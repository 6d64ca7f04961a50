internal import Foundation

extension Schema.Entity.Property {
    /// The value an attribute reads when its row is gone and its stored value was never read: its declared
    /// default; else `nil` for an optional; else the empty value of its type, the value its columns decode to when
    /// they hold 0, 0.0, an empty string or an empty blob (0, `false`, `""`, empty `Data`, the reference date, a
    /// zero `Decimal`, the all-zero `UUID`, `about:blank` for a `URL`, an empty array or dictionary stored as JSON,
    /// the case of the empty raw value, a composite of such fields), or the first case of a `CaseIterable`
    /// enumeration. Nil when the type has no such value (an enumeration with no case for the empty raw value that
    /// is not `CaseIterable`, a transformed value, a value stored as JSON that `[]` and `{}` are not): a fetch with
    /// `propertiesToFetch` always reads such attributes, and a batched fetch keeps their values (`LastKnownValues`);
    /// where nothing was kept, `standInValue` makes one.
    ///
    /// Computed on each use: it is needed only when a row is gone, and once per left-out attribute of a partial
    /// fetch.
    var placeholderValue: Any? {
        if let defaultValue { return defaultValue }
        if isOptional { return noneValue }
        guard let codec, !isRelationship else { return nil }
        let empties = codec.columnShapes.map { shape -> SQLValue in
            if shape.isNullable { return .null }
            switch shape.kind {
            case .integer, .boolean: return .integer(0)
            case .real, .date: return .real(0)
            case .blob: return .blob([])
            case .string, .text: return .text("")
            }
        }
        if let value = try? codec.decodeColumns(empties[...]) { return value }
        if let cases = valueType as? any CaseIterable.Type, let first = firstCase(of: cases) { return first }
        // Types whose empty text is not a value of theirs.
        let alternatives: [String] =
            switch codec {
            case .uuid: [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)).uuidString]
            case .decimal: ["0"]
            case .url: ["about:blank"]
            case .json: ["[]", "{}"]
            default: []
            }
        for text in alternatives {
            if let value = try? codec.decodeColumn(.text(text)) { return value }
        }
        return nil
    }

    /// The value an attribute reads in a model whose row is gone, or cannot be read, when nothing read from the row
    /// was kept: its placeholder, else `substituteValue`. Nil only for a type SwiftData can make no value of.
    var standInValue: Any? { placeholderValue ?? substituteValue }

    /// A value of an attribute whose type has no empty value, made without stored data: what its transformer gives
    /// for no data (`nil`, then empty `Data`), when that is a value of the attribute's type; else `madeValue(of:)`
    /// of the type (the first declared case of an enumeration with raw values, a `Decodable` value decoded from
    /// nothing, the zero of a small type holding no references). Nil for a type none of these gives a value of: a
    /// class, or a type holding references, whose coding (or transformer) refuses empty input.
    ///
    /// Runs code of the app (a transformer, `init(rawValue:)`, `init(from:)`), so never while a store holds a
    /// connection.
    var substituteValue: Any? {
        guard let codec, !isRelationship else { return nil }
        if case .transformed(let box) = codec {
            for input in [nil, Data()] as [Any?] {
                guard let value = box.transformer.reverseTransformedValue(input), isValue(value, of: valueType)
                else { continue }
                return value
            }
        }
        return madeValue(of: valueType)
    }

    /// The first of a type's cases.
    private func firstCase<Cases: CaseIterable>(of type: Cases.Type) -> Any? { type.allCases.first }

    /// True when `value` is a value of `type`.
    private func isValue<Value>(_ value: Any, of type: Value.Type) -> Bool { value is Value }
}

extension Schema.Entity {
    /// A model standing for a row of this entity that is gone, when something must be read in its place (a row a
    /// batched fetch found gone, the target of a non-optional to-one relationship that was deleted): marked
    /// deleted, in no context, each slot holding what `kept` gives for it, else each attribute its stand-in value
    /// (`Schema.Entity.Property.standInValue`), and each relationship empty (a non-optional to-one reads a stand-in
    /// of its own target in turn).
    ///
    /// An attribute of a type SwiftData can make no value of is left not fetched, and the model keeps `container`:
    /// reading it reads the value another row of the entity holds (see `ModelStorage.unfetchedAttribute(at:)`).
    func vanishedStandIn(
        identifier: PersistentIdentifier? = nil, kept: [Int: Any] = [:], container: ModelContainer?
    ) -> any PersistentModel {
        let properties = persistedProperties
        var holdsUnfetched = false
        let slots = ModelSlots(count: properties.count) { index -> Any in
            if let value = kept[index] { return value }
            let property = properties[index]
            if property.isRelationship { return property.emptyRelationshipValue }
            if let value = property.standInValue { return value }
            holdsUnfetched = true
            return ModelStorage.NotFetched()
        }
        let (model, storage) = makeModel(identifier: identifier ?? .temporary(of: self), slots: slots)
        storage.isDeleted = true
        if holdsUnfetched { storage.detachedContainer = container }
        return model
    }
}
