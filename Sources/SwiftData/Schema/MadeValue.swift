/// A value of a type, made without stored data, for an attribute whose type has no empty value (see
/// `Schema.Entity.Property.substituteValue`); nil when SwiftData cannot make one.
///
/// In this order: the first declared case of an enumeration with raw values (its all-zero bytes, see
/// `zeroValue(of:)`, kept only when `init(rawValue:)` accepts that case's raw value, so a `RawRepresentable`
/// structure's own checks hold); a `Decodable` value decoded from nothing (`EmptyValueDecoder`: each field empty, an
/// enumeration with payloads its first case); the all-zero value of a small type that holds no references. Each runs
/// only code of the type itself, never memory that could hold a reference: a class, or a type holding references,
/// that does not decode from nothing has no made value.
func madeValue(of type: any Any.Type) -> Any? {
    if let raw = type as? any RawRepresentable.Type, let value = firstDeclaredCase(of: raw) { return value }
    if let decodable = type as? any Decodable.Type, let value = decodedFromNothing(decodable) { return value }
    return zeroValueAsAny(of: type)
}

/// The value of the all-zero bytes of a `RawRepresentable` type, when the type's `init(rawValue:)` accepts its raw
/// value: for an enumeration with raw values, its first declared case.
private func firstDeclaredCase<Raw: RawRepresentable>(of _: Raw.Type) -> Any? {
    guard let zero = zeroValue(of: Raw.self) else { return nil }
    return Raw(rawValue: zero.rawValue)
}

private func decodedFromNothing<Value: Decodable>(_: Value.Type) -> Any? {
    try? EmptyValueDecoder.value(of: Value.self)
}

private func zeroValueAsAny<Value>(of _: Value.Type) -> Any? {
    zeroValue(of: Value.self)
}
