extension ModelStorage {
    // MARK: - Reading What Was Not Loaded

    /// True when a slot holds a value that was never loaded: an attribute a partial fetch left out, or a
    /// relationship of a row a batch could not read (a to-one stored in this model's row included).
    final var holdsUnloadedValues: Bool {
        for index in 0..<values.count {
            let type = heldType(of: values[index])
            if type == NotFetched.self || type == UnloadedRelationship.self { return true }
        }
        return false
    }

    /// The value of an attribute a fetch with `propertiesToFetch` left out, read now: through the model's context,
    /// or through its container when the context was released. When the row is gone (deleted by another context
    /// or process) or cannot be read, the attribute reads its placeholder (`Schema.Entity.Property.placeholderValue`)
    /// and is not marked loaded, so a later read tries the store again.
    final func unfetchedAttribute(at index: Int) -> Any {
        if let context {
            context.loadUnfetchedAttributes(of: self)
        } else if let detachedContainer {
            ModelContext(detachedContainer).loadUnfetchedAttributes(of: self)
        }
        let current = values[index]
        guard current is NotFetched else { return current }
        let property = entity.persistedProperties[index]
        guard let placeholder = property.placeholderValue else {
            // Unreachable while the store is consistent: a partial fetch reads every attribute without a
            // placeholder, and a batched fetch keeps their values, and the targets of non-optional to-ones, for
            // rows that vanish or cannot be read (see `LastKnownValues`). Left: a row a non-optional to-one refers
            // to that was missing already when the fetch read the reference.
            preconditionFailure(
                "\(entity.name).\(property.name) cannot be read: its row is gone from the store, or holds a value "
                    + "this program cannot read, and the property has no default value to stand in; give it a "
                    + "default value or make it optional")
        }
        return placeholder
    }

    /// The target of a to-one fault of a model in no context, read through a new context of its container (the
    /// container of the context that was released, or of the batched fetch that read `lastKnown`); when the
    /// target's row is gone, the model of a vanished row that `lastKnown` makes of it, else `nil`. The target
    /// belongs to no live context: it is read the same way in turn.
    final func detachedTarget(
        _ target: PersistentIdentifier, for property: Schema.Entity.Property, lastKnown: LastKnownValues?
    ) -> Any {
        let container = detachedContainer ?? lastKnown?.container
        let read = container.flatMap { ModelContext($0).resolveModel(for: target) }
        guard let model = read ?? lastKnown?.vanishedModel(for: target) else { return property.noneValue }
        return property.isOptional ? property.wrapOptional(model) : model
    }

    /// A relationship of a model whose context was released, read through a new context of its container and
    /// kept, as a loaded relationship is. The related models are new instances that belong to no live context.
    final func detachedRelationship(at index: Int) -> Any {
        let property = entity.persistedProperties[index]
        guard let detachedContainer else { return property.emptyRelationshipValue }
        let reader = ModelContext(detachedContainer)
        fillRelationship(at: index, with: reader.loadRelatedModels(of: self, property: property))
        return values[index]
    }
}
