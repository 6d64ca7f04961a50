/// A collection of models that can be the value of a to-many relationship.
public protocol RelationshipCollection {
    /// The type of model the collection holds.
    associatedtype PersistentElement: PersistentModel
}

extension Array: RelationshipCollection where Element: PersistentModel {
    /// The type of model the array holds.
    public typealias PersistentElement = Element
}

extension Optional: RelationshipCollection where Wrapped: RelationshipCollection {
    /// The type of model the wrapped collection holds.
    public typealias PersistentElement = Wrapped.PersistentElement
}

/// Type-erased access to the models in a to-many relationship's value.
protocol ModelCollectionValue {
    /// The models, in order (empty for `nil`).
    var modelElements: [any PersistentModel] { get }
    /// A value of this type holding the given models, which must all be of the element type.
    static func makeValue(_ elements: [any PersistentModel]) -> Any
    /// The element type.
    static var elementType: any PersistentModel.Type { get }
}

extension Array: ModelCollectionValue where Element: PersistentModel {
    var modelElements: [any PersistentModel] { self }
    static func makeValue(_ elements: [any PersistentModel]) -> Any { elements.map { exactCast($0, to: Element.self) } }
    static var elementType: any PersistentModel.Type { Element.self }
}

extension Optional: ModelCollectionValue where Wrapped: ModelCollectionValue {
    var modelElements: [any PersistentModel] { self?.modelElements ?? [] }
    // A to-many relationship is never nil at run time: an optional one holds an empty collection instead.
    static func makeValue(_ elements: [any PersistentModel]) -> Any {
        Optional(Wrapped.makeValue(elements) as! Wrapped) as Any
    }
    static var elementType: any PersistentModel.Type { Wrapped.elementType }
}
