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
    /// The models of `value` when it is a value of this type (empty for `nil`); nil when it is not.
    static func models(in value: Any) -> [any PersistentModel]?
    /// True when `value`, a value of this type, holds `model`; compared by identity, with no copy of the models.
    static func holds(_ model: AnyObject, in value: Any) -> Bool
    /// Adds `model` at the end of `value`, a value of this type (anything else counts as empty). The models are
    /// changed in place: a value whose storage nothing else refers to grows without a copy, so adding n models one
    /// by one costs O(n), not O(n²).
    static func append(_ model: any PersistentModel, to value: inout Any)
    /// Removes every occurrence of `model` from `value`, a value of this type, in place.
    static func remove(_ model: AnyObject, from value: inout Any)
}

extension ModelCollectionValue {
    static func models(in value: Any) -> [any PersistentModel]? {
        (value as? Self)?.modelElements
    }
}

extension Array: ModelCollectionValue where Element: PersistentModel {
    var modelElements: [any PersistentModel] { self }
    static func makeValue(_ elements: [any PersistentModel]) -> Any { elements.map { exactCast($0, to: Element.self) } }
    static var elementType: any PersistentModel.Type { Element.self }

    static func holds(_ model: AnyObject, in value: Any) -> Bool {
        guard let models = value as? Self else { return false }
        // Each element is one reference to a model: the scan compares the references' bits, in a loop that is not
        // generic (`contains(where:)` here is the standard library's unspecialized one, a call per element).
        let wanted = UnsafeRawPointer(Unmanaged.passUnretained(model).toOpaque())
        return models.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                if bytes.load(fromByteOffset: offset, as: UnsafeRawPointer.self) == wanted { return true }
                offset += MemoryLayout<UnsafeRawPointer>.stride
            }
            return false
        }
    }

    static func append(_ model: any PersistentModel, to value: inout Any) {
        var models = value as? Self ?? []
        // The slot's reference goes first, so that the array's storage is referred to once and grows in place.
        value = ()
        models.append(exactCast(model, to: Element.self))
        value = models
    }

    static func remove(_ model: AnyObject, from value: inout Any) {
        guard var models = value as? Self else { return }
        value = ()
        models.removeAll { $0 === model }
        value = models
    }
}

extension Optional: ModelCollectionValue where Wrapped: ModelCollectionValue {
    var modelElements: [any PersistentModel] { self?.modelElements ?? [] }
    // A to-many relationship is never nil at run time: an optional one holds an empty collection instead.
    static func makeValue(_ elements: [any PersistentModel]) -> Any {
        Optional(Wrapped.makeValue(elements) as! Wrapped) as Any
    }
    static var elementType: any PersistentModel.Type { Wrapped.elementType }

    static func holds(_ model: AnyObject, in value: Any) -> Bool {
        guard case .some(.some(let wrapped)) = value as? Self else { return false }
        return Wrapped.holds(model, in: wrapped)
    }

    static func append(_ model: any PersistentModel, to value: inout Any) {
        var wrapped = Wrapped.makeValue([])
        // In a scope of its own, so that `current` no longer refers to the storage once the slot lets go of it.
        do { if let current = value as? Wrapped { wrapped = current } }
        value = ()
        Wrapped.append(model, to: &wrapped)
        value = Optional(wrapped as! Wrapped) as Any
    }

    static func remove(_ model: AnyObject, from value: inout Any) {
        var wrapped: Any
        do {
            guard let current = value as? Wrapped else { return }
            wrapped = current
        }
        value = ()
        Wrapped.remove(model, from: &wrapped)
        value = Optional(wrapped as! Wrapped) as Any
    }
}
