/// `value as! T`, without the run-time's general cast when `value` holds exactly a `T`.
///
/// Model properties live in `Any` slots, so every property read and every value a save writes is cast back to its
/// type. `as!` goes through the run-time's general cast, which considers bridging, optional wrapping and protocol
/// conformances before it settles the common case: the slot holds exactly the property's type. Opening the
/// existential and comparing metadata settles that case in a few instructions (reading a `Date` slot took a
/// third of the time in a micro-benchmark); every other case still goes through `as!`.
@inline(__always)
func exactCast<T>(_ value: Any, to type: T.Type) -> T {
    func open<Contained>(_ contained: Contained) -> T {
        // The metadata are equal, so this is the identity conversion; it is how the standard library's own
        // `_identityCast` is written.
        if Contained.self == T.self { return unsafeBitCast(contained, to: T.self) }
        return contained as! T
    }
    return _openExistential(value, do: open)
}

/// `model as! T`, without the run-time's general cast when `model` is exactly a `T`: a fetch casts every model it
/// makes to the type it was asked for.
@inline(__always)
func exactCast<T: PersistentModel>(_ model: any PersistentModel, to type: T.Type) -> T {
    if Swift.type(of: model) == T.self { return unsafeDowncast(model, to: T.self) }
    return model as! T
}

/// The type `value` holds, read from the existential itself: `type(of:)` on an `Any` asks the run time for the
/// dynamic type, which costs as much again, and slot markers are structs, whose static and dynamic types agree.
@inline(__always)
func heldType(of value: Any) -> Any.Type {
    func open<Contained>(_: Contained) -> Any.Type { Contained.self }
    return _openExistential(value, do: open)
}
