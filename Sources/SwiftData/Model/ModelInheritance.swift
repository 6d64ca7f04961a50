// Support for `@Model` subclasses of `@Model` classes (model inheritance). A subclass's instances share the
// backing data of their root model class; their own properties reach it through these helpers, which take key
// paths of the subclass. Not for use outside the code `@Model` generates.

/// A subclass property's value assigned in its initializer before `super.init` created the backing data.
public enum _PendingValue<Value> {
    /// Nothing waiting.
    case none
    /// A value waiting for the backing data.
    case pending(Value)
}

/// The value of a `@Model` subclass's property.
public func _subclassValue<Model, Root, Value>(_ backing: _ModelBacking<Model>, forKey key: KeyPath<Root, Value>)
    -> Value
{
    let storage = ModelStorage.of(backing)
    return storage.value(at: storage.index(ofSubclassKeyPath: key, root: Root.self), as: Value.self)
}

/// Sets a `@Model` subclass's property.
public func _setSubclassValue<Model, Root, Value>(
    _ backing: _ModelBacking<Model>,
    forKey key: KeyPath<Root, Value>,
    to newValue: Value
) {
    let storage = ModelStorage.of(backing)
    let index = storage.index(ofSubclassKeyPath: key, root: Root.self)
    if storage.entity.persistedProperties[index].isRelationship {
        storage.setRelationship(at: index, to: newValue)
    } else {
        storage.setAttribute(at: index, to: newValue)
    }
}

/// Sets a property whose value waited, as `Any`, for the backing data: a property declared without a type
/// annotation, in a class whose `@Model` superclass, if any, creates the backing data.
public func _setPendingSubclassValue<Model, Root, Value>(
    _ backing: _ModelBacking<Model>,
    forKey key: KeyPath<Root, Value>,
    to newValue: Any
) {
    // The pending value was stored from this property's own initial value, so it always has the property's type.
    guard let value = newValue as? Value else {
        preconditionFailure("The pending value of \(key) is a \(type(of: newValue)), not a \(Value.self)")
    }
    _setSubclassValue(backing, forKey: key, to: value)
}

/// Writes a `let` property's value into the backing data when the model is inserted: only while its slot has no
/// value, so a model read from the store keeps the stored one.
public func _setInsertedValue<Model, Root, Value>(
    _ backing: _ModelBacking<Model>,
    forKey key: KeyPath<Root, Value>,
    to newValue: Value
) {
    let storage = ModelStorage.of(backing)
    let index = storage.index(ofSubclassKeyPath: key, root: Root.self)
    guard index < storage.values.count, storage.values.holds(ModelStorage.Unset.self, at: index) else { return }
    _setSubclassValue(backing, forKey: key, to: newValue)
}

extension ModelStorage {
    /// The slot of a subclass property, first switching this storage to the subclass's entity when it still has
    /// its root model's (a new subclass instance, whose backing data its root class created).
    func index(ofSubclassKeyPath keyPath: AnyKeyPath, root: Any.Type) -> Int {
        if let index = entity.indexIfPersisted(keyPath) { return index }
        guard let subclass = root as? any PersistentModel.Type else {
            preconditionFailure("\(keyPath) is not a persisted property of \(entity.name)")
        }
        adoptEntity(EntityRegistry.shared.entity(forType: subclass))
        return entity.index(of: keyPath)
    }

    /// Switches to the entity of a subclass: its properties begin with the current ones, in the same order.
    func adoptEntity(_ subentity: Schema.Entity) {
        guard subentity !== entity, subentity.persistedProperties.count >= entity.persistedProperties.count else {
            return
        }
        let added = subentity.persistedProperties.count - entity.persistedProperties.count
        if !values.isEmpty, values.count == entity.persistedProperties.count {
            values.growUnset(to: values.count + added)
        }
        entity = subentity
        if identifier.isTemporary { identifier = .temporary(of: subentity) }
    }
}

/// The topmost `@Model` class a model class inherits from (itself when it has no `@Model` superclass).
func rootModelType(of type: any PersistentModel.Type) -> any PersistentModel.Type {
    var root = type
    while let superclass = _getSuperclass(root as AnyClass), let model = superclass as? any PersistentModel.Type {
        root = model
    }
    return root
}

/// The `@Model` class a model class directly inherits from, if any.
func superModelType(of type: any PersistentModel.Type) -> (any PersistentModel.Type)? {
    guard let superclass = _getSuperclass(type as AnyClass) else { return nil }
    return superclass as? any PersistentModel.Type
}
