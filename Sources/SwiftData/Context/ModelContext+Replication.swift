internal import Foundation

/// What a replicator (the sync engine) needs to copy models between replicas without knowing their classes: models
/// found by identifier, new models of an entity named at run time, and each persisted property read and written by
/// its entity's description, as the model's own accessors would.
extension ModelContext {
    /// The entity of this context's container with a name, or nil when the schema has none.
    package func modelEntity(named name: String) -> Schema.Entity? {
        container.schema.modelEntitiesByName[name]
    }

    /// The container schema's entities that make models, in the schema's order.
    package var modelEntities: [Schema.Entity] { container.schema.entities.compactMap { modelEntity(named: $0.name) } }

    /// The container's `ModelConfiguration`s, in the order it was given them.
    package var modelConfigurations: [ModelConfiguration] { container.orderedConfigurations }

    /// The identifier of the store a configuration of the container opened (or shares with another configuration
    /// at its location); nil when it opened none (it holds no entity).
    package func storeIdentifier(of configuration: ModelConfiguration) -> String? {
        container.storeIdentifierByConfiguration[configuration.id]
    }

    /// The identifier of the store that keeps an entity's models, or nil for an entity the container does not
    /// know.
    package func storeIdentifier(ofEntityNamed name: String) -> String? {
        container.storeByEntity[name]?.identifier
    }

    /// The model with an identifier, registered here or read from its store; nil when no such model exists (it
    /// was never saved, or was deleted).
    ///
    /// - Throws: What the store throws when it cannot be read: a read that failed is never taken for a deletion.
    package func storedModel(for identifier: PersistentIdentifier) throws -> (any PersistentModel)? {
        guard let model = try resolveModel(for: identifier), !model.storage.isDeleted else { return nil }
        return model
    }

    /// Inserts a new model of an entity, each attribute holding the value a model that never set it reads (its
    /// declared default, else `nil`, else the empty value of its type) and each relationship empty.
    package func insertNewModel(of entity: Schema.Entity) -> any PersistentModel {
        let properties = entity.persistedProperties
        let slots = ModelSlots(count: properties.count) { index -> Any in
            let property = properties[index]
            if property.isRelationship { return property.emptyRelationshipValue }
            return property.standInValue ?? property.unstoredValue
        }
        let (model, storage) = entity.makeModel(identifier: .temporary(of: entity), slots: slots)
        storage.isSaved = false
        insertModel(model)
        return model
    }

    /// Deletes a model known only as `any PersistentModel`, as `delete(_:)` does.
    package func deleteModel(_ model: any PersistentModel) {
        func delete<Model: PersistentModel>(_ model: Model) { self.delete(model) }
        delete(model)
    }
}

extension Schema.Entity.Property {
    /// The property's value in a model: an attribute's value (an `Optional` for an optional attribute), the related
    /// model of a to-one relationship or nil, the related models of a to-many relationship.
    package func value(in model: any PersistentModel) -> Any {
        let storage = model.storage
        if let info = relationshipInfo {
            let related = relatedModels(in: storage.value(at: index))
            return info.isToMany ? related as Any : related.first as Any
        }
        return storage.value(at: index)
    }

    /// The models a relationship of a model holds.
    package func relatedModels(of model: any PersistentModel) -> [any PersistentModel] {
        relatedModels(in: model.storage.value(at: index))
    }

    /// Sets an attribute of a model to a value of its type, as the model's setter does: a change the context
    /// records, that observers see.
    package func setAttribute(_ value: Any, in model: any PersistentModel) {
        let storage = model.storage
        model._$swiftDataWithMutation(of: keyPath) { storage.setAttribute(at: index, to: value) }
    }

    /// Sets a to-one relationship of a model to a model or nil, or a to-many relationship to models, as the
    /// model's setter does: the other side is kept consistent.
    package func setRelated(_ models: [any PersistentModel], in model: any PersistentModel) {
        let storage = model.storage
        let value: Any =
            relationshipInfo?.isToMany == true
            ? makeCollection(models)
            : models.first.map { isOptional ? wrapOptional($0) : $0 } ?? noneValue
        model._$swiftDataWithMutation(of: keyPath) { storage.setRelationship(at: index, to: value) }
    }

    /// The property's value for a model that never set it: its declared default, else `nil`, else the empty value
    /// of its type; nil for a relationship or a type SwiftData can make no value of.
    package var unsetValue: Any? { isRelationship ? nil : standInValue }
}
