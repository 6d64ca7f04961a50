import SwiftSyntax

/// Type names that SwiftData stores as plain attributes; a relationship to one of them is a misuse.
let knownAttributeTypeNames: Set<String> = [
    "String", "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    "Double", "Float", "Date", "Data", "URL", "UUID", "Decimal", "Character",
]

extension TypeSyntax {
    /// The type with one level of `Optional`, `?` or `!` removed.
    var unwrappedOptional: TypeSyntax {
        if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let implicit = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return implicit.wrappedType }
        if let identifier = self.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            return TypeSyntax(fromProtocol: argument.argument.as(TypeSyntax.self) ?? self)
        }
        return self
    }

    /// The element type of an array written as `[T]` or `Array<T>`, if this is one.
    var arrayElement: TypeSyntax? {
        if let array = self.as(ArrayTypeSyntax.self) { return array.element }
        if let identifier = self.as(IdentifierTypeSyntax.self), identifier.name.text == "Array",
            let argument = identifier.genericArgumentClause?.arguments.first
        {
            return argument.argument.as(TypeSyntax.self)
        }
        return nil
    }

    /// A reason this type can never be persisted, judged from syntax alone (the compiler checks the rest).
    var unsupportedPersistenceReason: Bool {
        let type = unwrappedOptional
        if type.is(FunctionTypeSyntax.self) || type.is(TupleTypeSyntax.self) || type.is(MetatypeTypeSyntax.self)
            || type.is(SomeOrAnyTypeSyntax.self)
        {
            return true
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return attributed.baseType.unsupportedPersistenceReason || attributed.baseType.is(FunctionTypeSyntax.self)
        }
        let name = type.trimmedDescription
        return name == "Any" || name == "AnyObject"
    }

    /// True when the type, after unwrapping optionals and arrays, is a known attribute type such as `String`.
    var isPlainlyAttributeType: Bool {
        let base = unwrappedOptional
        let element = (base.arrayElement ?? base).unwrappedOptional
        return knownAttributeTypeNames.contains(element.trimmedDescription)
            || knownAttributeTypeNames.contains(element.trimmedDescription.replacingPrefix("Swift."))
            || knownAttributeTypeNames.contains(element.trimmedDescription.replacingPrefix("Foundation."))
    }
}

extension String {
    /// The string without the given prefix, or unchanged when it does not start with it.
    func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
