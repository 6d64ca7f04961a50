/// The storage behind a model's persisted properties.
///
/// `@Model` reads and writes every persisted property through its model's backing data. SwiftData creates the
/// backing data; you don't conform to this protocol yourself.
public protocol BackingData<Model> {
    /// The model type whose values this backing data holds.
    associatedtype Model: PersistentModel

    /// Creates empty backing data for a new model.
    init(for modelType: Model.Type)

    /// The identifier of the model, once it has one.
    var persistentModelID: PersistentIdentifier? { get set }

    /// Store-specific information about the model.
    var metadata: Any { get }

    /// The object that holds the values. SwiftData's own backing data returns itself; this lets SwiftData reach
    /// it without a dynamic cast on every property access. Not for use outside SwiftData.
    var _swiftDataStorage: AnyObject? { get }

    /// The value of an attribute.
    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value where Value: Decodable
    /// The value of a to-one relationship that is not optional.
    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value where Value: PersistentModel
    /// The value of an optional to-one relationship.
    func getValue<Value>(forKey key: KeyPath<Model, Value?>) -> Value? where Value: PersistentModel
    /// The value of a to-many relationship.
    func getValue<Value, OtherModel>(forKey key: KeyPath<Model, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement

    /// The value of an attribute stored through a value transformer.
    func getTransformableValue<Value>(forKey key: KeyPath<Model, Value>) -> Value
    /// Sets an attribute stored through a value transformer.
    func setTransformableValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value)

    /// Sets an attribute.
    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) where Value: Encodable
    /// Sets a to-one relationship that is not optional.
    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) where Value: PersistentModel
    /// Sets an optional to-one relationship.
    func setValue<Value>(forKey key: KeyPath<Model, Value?>, to newValue: Value?) where Value: PersistentModel
    /// Sets a to-many relationship.
    func setValue<Value, OtherModel>(forKey key: KeyPath<Model, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement
}

extension BackingData {
    /// No SwiftData storage, for backing data SwiftData did not create.
    public var _swiftDataStorage: AnyObject? { nil }
}
