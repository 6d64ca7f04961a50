extension DefaultSnapshot {
    // MARK: - Creating a Snapshot

    /// Makes a snapshot of a model's current values from its backing data.
    ///
    /// Every persisted property the model has a value for is in the snapshot: attributes as they are, relationships
    /// as the identifiers of the related models (a to-one relationship that is not loaded yet is read without
    /// loading it). A property the model never gave a value gets its declared default value, `nil` when it is
    /// optional, and is left out otherwise. The backing data of each related model met is added to
    /// `relatedBackingDatas`.
    ///
    /// ```swift
    /// var related: [PersistentIdentifier: any BackingData] = [:]
    /// let snapshot = DefaultSnapshot(from: trip.persistentBackingData, relatedBackingDatas: &related)
    /// ```
    ///
    /// - Precondition: `backingData` is SwiftData's own, as every `@Model` class's is.
    public init(from backingData: any BackingData, relatedBackingDatas: inout [PersistentIdentifier: any BackingData]) {
        guard let storage = backingData._swiftDataStorage as? ModelStorage else {
            preconditionFailure(
                "DefaultSnapshot(from:relatedBackingDatas:) reads backing data that SwiftData created; "
                    + "\(type(of: backingData)) is of another kind")
        }
        storage.ensureSlots()
        var values: [String: Value] = [:]
        for property in storage.entity.persistedProperties {
            let index = property.index
            if let info = property.relationshipInfo {
                if !info.isToMany, storage.values.holds(ModelStorage.ToOneFault.self, at: index),
                    let fault = storage.values[index] as? ModelStorage.ToOneFault
                {
                    values[property.name] = .toOne(fault.target)
                    continue
                }
                let related = property.relatedModels(in: storage.value(at: index))
                for model in related where relatedBackingDatas[model.persistentModelID] == nil {
                    relatedBackingDatas[model.persistentModelID] = model.anyBackingData
                }
                let targets = related.map(\.persistentModelID)
                values[property.name] = info.isToMany ? .toMany(targets) : .toOne(targets.first)
            } else if storage.values.holds(ModelStorage.Unset.self, at: index) {
                if let defaultValue = property.defaultValue {
                    values[property.name] = .attribute(defaultValue)
                } else if property.isOptional {
                    values[property.name] = .attribute(property.noneValue)
                }
            } else {
                values[property.name] = .attribute(storage.value(at: index))
            }
        }
        self.init(persistentIdentifier: storage.identifier, entity: storage.entity, values: values)
    }

    // MARK: - Internal

    /// A model of the snapshot's entity, with the snapshot's identifier and attribute values, as a fetched model:
    /// it belongs to no context and has no unsaved changes.
    ///
    /// Relationships are not loaded: a to-one relationship holds the related model's identifier, which the model's
    /// context resolves on first access, and a to-many relationship is marked not loaded. `fillRelationships`
    /// gives them the related models. An attribute the snapshot does not hold gets its declared default value,
    /// `nil` when it is optional, and is left unset otherwise (reading it stops the program, as it does for a
    /// model whose initializer did not set it).
    func makeModel() -> (model: any PersistentModel, storage: ModelStorage) {
        let properties = entity.persistedProperties
        let slots = ModelSlots(count: properties.count) { index -> Any in
            let property = properties[index]
            switch values[property.name] {
            case .attribute(let value)?: return value
            case .toOne(let target?)?: return ModelStorage.ToOneFault(target: target)
            case .toOne(nil)?: return property.noneValue
            case .toMany?: return ModelStorage.UnloadedRelationship()
            case nil: return property.isRelationship ? ModelStorage.UnloadedRelationship() : property.unstoredValue
            }
        }
        return entity.makeModel(identifier: persistentIdentifier, slots: slots)
    }

    /// Sets every relationship of the model behind `storage` that the snapshot holds to the models `resolve` gives
    /// for the snapshot's identifiers, as the model's saved state: no change is recorded and no inverse is updated
    /// (the related models' own snapshots hold the other side). Identifiers `resolve` has no model for are left
    /// out: a to-one relationship to one becomes `nil`.
    func fillRelationships(of storage: ModelStorage, resolve: (PersistentIdentifier) -> (any PersistentModel)?) {
        storage.ensureSlots()
        for property in storage.entity.persistedProperties where property.isRelationship {
            let value: Any
            switch values[property.name] {
            case .toMany(let targets)?: value = property.makeCollection(targets.compactMap(resolve))
            case .toOne(let target)?:
                guard let target, let model = resolve(target) else {
                    value = property.noneValue
                    break
                }
                value = property.isOptional ? property.wrapOptional(model) : model
            case .attribute?, nil: continue
            }
            storage.values[property.index] = value
        }
    }

    /// Models for snapshots, related to each other as the snapshots say: relationships to a model whose snapshot
    /// is not among them are left out. The models belong to no context.
    static func makeModels(_ snapshots: [DefaultSnapshot]) -> [PersistentIdentifier: any PersistentModel] {
        var made: [PersistentIdentifier: (model: any PersistentModel, storage: ModelStorage)] = [:]
        for snapshot in snapshots { made[snapshot.persistentIdentifier] = snapshot.makeModel() }
        for snapshot in snapshots {
            guard let storage = made[snapshot.persistentIdentifier]?.storage else { continue }
            snapshot.fillRelationships(of: storage) { made[$0]?.model }
        }
        return made.mapValues(\.model)
    }

}
