/// An interface that enables SwiftData to manage a Swift class as a stored model.
///
/// Don't conform to this protocol yourself: apply `@Model` to a class, which writes the conformance.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable, SendableMetatype {
    /// Creates a model that reads and writes its values through the given backing data.
    init(backingData: any BackingData<Self>)
    /// The backing data that holds the model's values.
    var persistentBackingData: any BackingData<Self> { get set }
    /// What `@Model` records about each persisted property.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
    /// The key-path groups `#Unique` declares; empty by default. `#Unique` writes this; don't write it yourself.
    static var _$swiftDataUniquenessConstraints: [[AnyKeyPath]] { get }
    /// The key-path groups `#Index` declares; empty by default. `#Index` writes this; don't write it yourself.
    static var _$swiftDataIndices: [[AnyKeyPath]] { get }
    /// Runs a change SwiftData makes to a property (refreshing it from the store, or updating an inverse
    /// relationship) inside Observation's `withMutation`, so observers see it. `@Model` writes this.
    func _$swiftDataWithMutation(of keyPath: AnyKeyPath, _ mutation: () -> Void)
    /// SwiftData's storage behind the model's backing data, unretained (the backing data holds it), or nil for
    /// backing data of another kind. `@Model` writes this from the storage it keeps beside the backing data;
    /// don't write it yourself.
    var _$swiftDataStorage: Unmanaged<AnyObject>? { get }
    /// Moves property values a `@Model` subclass's initializer assigned before its backing data existed into the
    /// backing data. `@Model` writes this for classes that can be subclassed; don't write it yourself.
    func _$swiftDataFlushPending()
    /// The key paths of the persisted properties, in the order of `schemaMetadata`, all rooted at this class.
    ///
    /// `schemaMetadata` lists a `@Model` subclass's inherited properties with the key paths of the class that
    /// declares them (`\Vehicle.name`), which are not key paths of the subclass: `\Truck.name` is another key path,
    /// and compares unequal. History hands out these instead, so that a change of a `Truck` answers `\.name`.
    /// `@Model` writes this for classes that can be subclassed; don't write it yourself.
    static var _$swiftDataPropertyKeyPaths: [AnyKeyPath] { get }
}

extension PersistentModel {
    /// No `#Unique` constraints.
    public static var _$swiftDataUniquenessConstraints: [[AnyKeyPath]] { [] }
    /// No `#Index` indexes.
    public static var _$swiftDataIndices: [[AnyKeyPath]] { [] }

    /// The storage behind `persistentBackingData`, for models that `@Model` did not expand.
    public var _$swiftDataStorage: Unmanaged<AnyObject>? {
        _ModelBacking<Self>.storageReference(of: persistentBackingData)
    }

    /// The schema metadata's key paths, for classes that cannot be subclassed (and models that `@Model` did not
    /// expand): no property of theirs is inherited.
    public static var _$swiftDataPropertyKeyPaths: [AnyKeyPath] { schemaMetadata.map(\.keypath) }

    /// Nothing waits, for final model classes.
    public func _$swiftDataFlushPending() {}

    /// Runs the change without notifying observers, for models that `@Model` did not expand.
    public func _$swiftDataWithMutation(of keyPath: AnyKeyPath, _ mutation: () -> Void) { mutation() }

    /// Creates the backing data for a new model that is not yet in a context.
    // Inlinable so that the code `@Model` expands to sees the concrete type behind `some BackingData<Self>` and
    // needs no run-time lookup of the opaque type for every model it creates.
    @inlinable
    public static func createBackingData() -> some BackingData<Self> {
        // A fetch creating this model offers the backing data it filled from the row.
        if let offered = BackingDataHandoff.take(for: Self.self) {
            return unsafeDowncast(offered, to: DefaultBackingData<Self>.self)
        }
        return DefaultBackingData<Self>(for: Self.self)
    }

    // MARK: - Identifying a Model

    /// The identifier of the model: temporary until the model is first saved, permanent afterwards.
    public var persistentModelID: PersistentIdentifier { storage.identifier }

    /// The model's identity for `Identifiable`: its `persistentModelID`.
    public var id: PersistentIdentifier { persistentModelID }

    // MARK: - Model State

    /// The context that manages the model, or nil when the model has not been inserted.
    public var modelContext: ModelContext? { storage.context }

    /// True when the model has unsaved changes: it was inserted or changed since the last save.
    public var hasChanges: Bool { storage.hasChanges }

    /// True when the model was deleted from its context (and the deletion may not be saved yet).
    public var isDeleted: Bool { storage.isDeleted }

    // MARK: - Reading and Writing Values

    /// The value of an attribute.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: Decodable {
        persistentBackingData.getValue(forKey: key)
    }

    /// The value of a to-one relationship that is not optional.
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value where Value: PersistentModel {
        storage.bind(self)
        return persistentBackingData.getValue(forKey: key)
    }

    /// The value of an optional to-one relationship.
    public func getValue<Value>(forKey key: KeyPath<Self, Value?>) -> Value? where Value: PersistentModel {
        storage.bind(self)
        return persistentBackingData.getValue(forKey: key)
    }

    /// The value of a to-many relationship.
    public func getValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        storage.bind(self)
        return persistentBackingData.getValue(forKey: key)
    }

    /// The value of an attribute stored through a value transformer.
    public func getTransformableValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getTransformableValue(forKey: key)
    }

    /// Sets an attribute stored through a value transformer.
    public func setTransformableValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setTransformableValue(forKey: key, to: newValue)
    }

    /// Sets an attribute.
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: Encodable {
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// Sets a to-one relationship that is not optional, updating the inverse relationship.
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) where Value: PersistentModel {
        storage.bind(self)
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// Sets an optional to-one relationship, updating the inverse relationship.
    public func setValue<Value>(forKey key: KeyPath<Self, Value?>, to newValue: Value?) where Value: PersistentModel {
        storage.bind(self)
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    /// Sets a to-many relationship, updating the inverse relationship of every added or removed model.
    public func setValue<Value, OtherModel>(forKey key: KeyPath<Self, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        storage.bind(self)
        persistentBackingData.setValue(forKey: key, to: newValue)
    }

    // MARK: - Internal

    /// The model's storage, bound to the model.
    package var storage: ModelStorage { ModelStorage.of(self) }
}

extension PersistentModel {
    /// Models are equal when they are the same instance; a context holds one instance per identifier.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension PersistentModel {
    /// The model's backing data as the protocol's existential, for code that holds models as `any PersistentModel`.
    var anyBackingData: any BackingData { persistentBackingData }
}
