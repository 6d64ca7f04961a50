/// The backing data SwiftData gives every model: a `ModelStorage` typed by its model.
@usableFromInline
final class DefaultBackingData<Model: PersistentModel>: ModelStorage, BackingData {
    @usableFromInline
    init(for modelType: Model.Type) {
        super.init(entity: Schema.Entity.of(modelType))
        // A new model's initializer fills every slot next: made now, each fill is in place
        // (`setInitialValue(at:to:)`).
        ensureSlots()
    }

    required override init(entity: Schema.Entity, identifier: PersistentIdentifier) {
        super.init(entity: entity, identifier: identifier)
    }

    @usableFromInline
    var persistentModelID: PersistentIdentifier? {
        get { identifier }
        set { if let newValue { identifier = newValue } }
    }

    @usableFromInline
    var metadata: Any { entity.name }

    override var backingModelType: ObjectIdentifier { ObjectIdentifier(Model.self) }

    @usableFromInline
    var _swiftDataStorage: AnyObject? { self }

    @usableFromInline
    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value where Value: Decodable {
        value(at: entity.index(of: key), as: Value.self)
    }

    @usableFromInline
    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value where Value: PersistentModel {
        value(at: entity.index(of: key), as: Value.self)
    }

    @usableFromInline
    func getValue<Value>(forKey key: KeyPath<Model, Value?>) -> Value? where Value: PersistentModel {
        value(at: entity.index(of: key), as: Value?.self)
    }

    @usableFromInline
    func getValue<Value, OtherModel>(forKey key: KeyPath<Model, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        value(at: entity.index(of: key), as: Value.self)
    }

    @usableFromInline
    func getTransformableValue<Value>(forKey key: KeyPath<Model, Value>) -> Value {
        value(at: entity.index(of: key), as: Value.self)
    }

    @usableFromInline
    func setTransformableValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        setAttribute(at: entity.index(of: key), to: newValue)
    }

    @usableFromInline
    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) where Value: Encodable {
        setAttribute(at: entity.index(of: key), to: newValue)
    }

    @usableFromInline
    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) where Value: PersistentModel {
        setRelationship(at: entity.index(of: key), to: newValue)
    }

    @usableFromInline
    func setValue<Value>(forKey key: KeyPath<Model, Value?>, to newValue: Value?) where Value: PersistentModel {
        setRelationship(at: entity.index(of: key), to: newValue as Any)
    }

    @usableFromInline
    func setValue<Value, OtherModel>(forKey key: KeyPath<Model, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        setRelationship(at: entity.index(of: key), to: newValue)
    }
}
