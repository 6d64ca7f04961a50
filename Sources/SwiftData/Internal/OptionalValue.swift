/// Lets type-erased code see through `Optional` without knowing the wrapped type statically.
protocol OptionalValue {
    /// The wrapped type.
    static var wrappedType: any Any.Type { get }
    /// `nil` of this optional type, boxed.
    static var noneValue: Any { get }
    /// `.some(value)` of this optional type, boxed; `value` must be a `Wrapped`.
    static func wrapping(_ value: Any) -> Any
    /// The wrapped value, or nil.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    static var wrappedType: any Any.Type { Wrapped.self }
    static var noneValue: Any { Optional<Wrapped>.none as Any }
    static func wrapping(_ value: Any) -> Any { Optional(value as! Wrapped) as Any }
    var wrappedAny: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): wrapped
        }
    }
}

/// The type with every level of `Optional` removed.
func unwrappedValueType(_ type: any Any.Type) -> any Any.Type {
    var current = type
    while let optional = current as? any OptionalValue.Type { current = optional.wrappedType }
    return current
}

/// The value with every level of `Optional` removed, or nil when some level is `nil`.
func unwrappedValue(_ value: Any) -> Any? {
    var current = value
    while let optional = current as? any OptionalValue {
        guard let wrapped = optional.wrappedAny else { return nil }
        current = wrapped
    }
    return current
}
