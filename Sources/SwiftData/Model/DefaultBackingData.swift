/// The backing data SwiftData gives every model: a `ModelStorage` typed by its model.
final class DefaultBackingData<Model: PersistentModel>: ModelStorage, BackingData {
    init(for modelType: Model.Type) {
        super.init(entity: Schema.Entity.of(modelType))
    }

    override init(entity: Schema.Entity, identifier: PersistentIdentifier, values: [Any]) {
        super.init(entity: entity, identifier: identifier, values: values)
    }

    var persistentModelID: PersistentIdentifier? {
        get { identifier }
        set { if let newValue { identifier = newValue } }
    }

    var metadata: Any { entity.name }

    var _swiftDataStorage: AnyObject? { self }

    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value where Value: Decodable {
        value(at: entity.index(of: key)) as! Value
    }

    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value where Value: PersistentModel {
        value(at: entity.index(of: key)) as! Value
    }

    func getValue<Value>(forKey key: KeyPath<Model, Value?>) -> Value? where Value: PersistentModel {
        value(at: entity.index(of: key)) as! Value?
    }

    func getValue<Value, OtherModel>(forKey key: KeyPath<Model, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        value(at: entity.index(of: key)) as! Value
    }

    func getTransformableValue<Value>(forKey key: KeyPath<Model, Value>) -> Value {
        value(at: entity.index(of: key)) as! Value
    }

    func setTransformableValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        setAttribute(at: entity.index(of: key), to: newValue)
    }

    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) where Value: Encodable {
        setAttribute(at: entity.index(of: key), to: newValue)
    }

    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) where Value: PersistentModel {
        setRelationship(at: entity.index(of: key), to: newValue)
    }

    func setValue<Value>(forKey key: KeyPath<Model, Value?>, to newValue: Value?) where Value: PersistentModel {
        setRelationship(at: entity.index(of: key), to: newValue as Any)
    }

    func setValue<Value, OtherModel>(forKey key: KeyPath<Model, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        setRelationship(at: entity.index(of: key), to: newValue)
    }
}
