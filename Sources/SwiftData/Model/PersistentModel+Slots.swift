// The accessors `@Model` writes for a class without a `@Model` superclass pass each property's slot: its position
// among the class's persisted properties, which is also its index in the entity, since the schema metadata lists
// them in the same order and subclasses only add properties after them. With SwiftData's backing data the slot
// is used directly; finding it from the key path was a search on every access. Other backing data is used through
// `getValue(forKey:)` and `setValue(forKey:to:)`. Debug builds check each slot against the key path.

extension PersistentModel {
    /// `getValue(forKey:)`, for `@Model`'s accessors, which know the property's slot.
    ///
    /// Inlined into the model's module, where it is specialized for the property's type: an attribute read is
    /// then a type comparison and a load (see `ModelSlots.inlineValue(at:as:)`).
    @inlinable
    public func _getValue<Value>(forKey key: KeyPath<Self, Value>, slot: Int) -> Value where Value: Decodable {
        ModelStorage.withStorage(behind: self) { storage in
            checked(storage, slot: slot, key: key).value(at: slot, as: Value.self)
        } ?? getValue(forKey: key)
    }

    /// `getValue(forKey:)` for a to-one relationship that is not optional.
    public func _getValue<Value>(forKey key: KeyPath<Self, Value>, slot: Int) -> Value where Value: PersistentModel {
        getValue(forKey: key)
    }

    /// `getValue(forKey:)` for an optional to-one relationship.
    public func _getValue<Value>(forKey key: KeyPath<Self, Value?>, slot: Int) -> Value? where Value: PersistentModel {
        getValue(forKey: key)
    }

    /// `getValue(forKey:)` for a to-many relationship.
    public func _getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, slot: Int) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        getValue(forKey: key)
    }

    /// `setValue(forKey:to:)`, for `@Model`'s accessors, which know the property's slot.
    ///
    /// Inlined into the model's module, where the new value is put in an `Any` for its known type rather than
    /// through the run time's generic conversion.
    @inlinable
    public func _setValue<Value>(forKey key: KeyPath<Self, Value>, slot: Int, to newValue: Value)
    where Value: Encodable {
        let wrote: Void? = ModelStorage.withStorage(behind: self) { storage in
            checked(storage, slot: slot, key: key).setAttribute(at: slot, to: newValue)
        }
        if wrote == nil { setValue(forKey: key, to: newValue) }
    }

    /// `setValue(forKey:to:)` for a to-one relationship that is not optional.
    public func _setValue<Value>(forKey key: KeyPath<Self, Value>, slot: Int, to newValue: Value)
    where Value: PersistentModel {
        setValue(forKey: key, to: newValue)
    }

    /// `setValue(forKey:to:)` for an optional to-one relationship.
    public func _setValue<Value>(forKey key: KeyPath<Self, Value?>, slot: Int, to newValue: Value?)
    where Value: PersistentModel {
        setValue(forKey: key, to: newValue)
    }

    /// `setValue(forKey:to:)` for a to-many relationship.
    public func _setValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, slot: Int, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        setValue(forKey: key, to: newValue)
    }
}

/// `backingData.setValue(forKey:to:)` for the initial value of an attribute, which `@Model`'s `init` accessors
/// store before the model exists. Inlined into the model's module, like `_setValue(forKey:slot:to:)`.
///
/// The key path is an autoclosure: only backing data of another kind and the debug check of the slot use it, and
/// each key path literal evaluated is a call into the run time and a retain and release.
@inlinable
public func _setInitialValue<Model: PersistentModel, Value: Encodable>(
    of backing: _ModelBacking<Model>,
    slot: Int,
    forKey key: @autoclosure () -> KeyPath<Model, Value>,
    to newValue: Value
) {
    guard let storage = backing.storage else { return backing.backingData.setValue(forKey: key(), to: newValue) }
    checked(storage, slot: slot, key: key()).setInitialValue(at: slot, to: newValue)
}

/// `backingData.setValue(forKey:to:)` for the initial value of a to-one relationship that is not optional.
public func _setInitialValue<Model: PersistentModel, Value: PersistentModel>(
    of backing: _ModelBacking<Model>,
    slot: Int,
    forKey key: KeyPath<Model, Value>,
    to newValue: Value
) {
    backing.backingData.setValue(forKey: key, to: newValue)
}

/// `backingData.setValue(forKey:to:)` for the initial value of an optional to-one relationship.
public func _setInitialValue<Model: PersistentModel, Value: PersistentModel>(
    of backing: _ModelBacking<Model>,
    slot: Int,
    forKey key: KeyPath<Model, Value?>,
    to newValue: Value?
) {
    backing.backingData.setValue(forKey: key, to: newValue)
}

/// `backingData.setValue(forKey:to:)` for the initial value of a to-many relationship.
public func _setInitialValue<Model: PersistentModel, Value, OtherModel>(
    of backing: _ModelBacking<Model>,
    slot: Int,
    forKey key: KeyPath<Model, Value>,
    to newValue: Value
) where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
    backing.backingData.setValue(forKey: key, to: newValue)
}

/// A model's storage, which debug builds check to have `slot` as the slot of `key`.
@inlinable
func checked<Model, Value>(_ storage: ModelStorage, slot: Int, key: @autoclosure () -> KeyPath<Model, Value>)
    -> ModelStorage
{
    assert(storage.isSlot(slot, of: key()), "\(key()) is not in slot \(slot) of its entity")
    return storage
}
