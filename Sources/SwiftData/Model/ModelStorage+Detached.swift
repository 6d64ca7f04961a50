extension ModelStorage {
    // MARK: - Reading What Was Not Loaded

    /// True when a slot holds a value that was never loaded: an attribute not fetched (`NotFetched`), or a
    /// relationship of a row a batch could not read (a to-one stored in this model's row included).
    final var holdsUnloadedValues: Bool {
        for index in 0..<values.count {
            let type = heldType(of: values[index])
            if type == NotFetched.self || type == UnloadedRelationship.self { return true }
        }
        return false
    }

    /// The value of an attribute not fetched yet, read now: through the model's context, or through its container
    /// when the context was released. When the row is gone (deleted by another context or process) or cannot be
    /// read, the attribute reads its stand-in value (`Schema.Entity.Property.standInValue`: its placeholder, else a
    /// value SwiftData makes of its type) and is not marked loaded, so a later read tries the store again.
    ///
    /// Three kinds of model hold attributes not fetched: one a fetch with `propertiesToFetch` read; one of a row
    /// that is gone (`Schema.Entity.vanishedStandIn(identifier:kept:container:)`: what `ModelContext.model(for:)`
    /// returns for a deleted row, the target of a non-optional to-one relationship that is gone, a row gone before
    /// its batch was read); and one of a row the store could not read
    /// (`ModelContext.unloadedModel(of:identifier:kept:)`). An attribute that has no placeholder is never left out
    /// of the first kind, since a fetch with `propertiesToFetch` always reads it, and a batched fetch keeps its
    /// value for the models of the other kinds it makes. So an attribute of a type SwiftData can make no value of
    /// (a class, or a type holding references, that neither its coding nor its transformer makes from no data)
    /// reaches the end of this method only in a model of a row none of whose values was read. It then reads the
    /// value another row of the entity holds, the first in key order that can be read: a value of the type the app
    /// made, which beats stopping. Only when no row holds one does the read stop the program, with a message naming
    /// the property: no value of its type exists to return.
    final func unfetchedAttribute(at index: Int) -> Any {
        let reader = context ?? detachedContainer.map { ModelContext($0) }
        reader?.loadUnfetchedAttributes(of: self)
        let current = values[index]
        guard current is NotFetched else { return current }
        let property = entity.persistedProperties[index]
        if let value = property.standInValue { return value }
        if let value = reader?.storedValue(of: property, in: entity) { return value }
        preconditionFailure(
            "\(entity.name).\(property.name) cannot be read: its row is gone from the store, or cannot be read, "
                + "SwiftData can make no value of \(property.valueType) (its transformer gives none for empty data, "
                + "and it neither decodes from nothing nor is a small value type), and no other row of "
                + "\(entity.name) holds one; give the property a default value or make it optional")
    }

    /// The target of a to-one fault of a model in no context, read through a new context of its container (the
    /// container of the context that was released, or of the batched fetch that read `lastKnown`); when the
    /// target's row is gone, the model of a vanished row that `lastKnown` makes of it, else `nil`; and whether that
    /// is final (see `resolve`). The target belongs to no live context: it is read the same way in turn.
    final func detachedTarget(
        _ target: PersistentIdentifier, for property: Schema.Entity.Property, lastKnown: LastKnownValues?
    ) -> (value: Any, isFinal: Bool) {
        guard let container = detachedContainer ?? lastKnown?.container else { return (property.noneValue, true) }
        return resolved(ModelContext(container).resolveTarget(target, lastKnown: lastKnown), for: property)
    }

    /// A relationship of a model whose context was released, read through a new context of its container and
    /// kept, as a loaded relationship is. The related models are new instances that belong to no live context. A
    /// read the store failed keeps nothing, and this read finds no model: the next one tries again.
    final func detachedRelationship(at index: Int) -> Any {
        let property = entity.persistedProperties[index]
        guard let detachedContainer,
            let models = ModelContext(detachedContainer).loadRelatedModels(of: self, property: property)
        else { return property.emptyRelationshipValue }
        fillRelationship(at: index, with: models)
        return values[index]
    }
}
