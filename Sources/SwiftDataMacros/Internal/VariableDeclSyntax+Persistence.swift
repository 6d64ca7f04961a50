import SwiftSyntax

extension VariableDeclSyntax {
    /// The single identifier this declaration binds, or nil for tuple patterns and multi-binding declarations.
    var singleIdentifier: String? {
        guard bindings.count == 1, let pattern = bindings.first?.pattern.as(IdentifierPatternSyntax.self) else {
            return nil
        }
        return pattern.identifier.trimmedDescription
    }

    /// True when the declaration carries an attribute with the given name (`@Transient`, `@Relationship`, …).
    func hasAttribute(named name: String) -> Bool {
        attribute(named: name) != nil
    }

    /// The attribute with the given name, matching both `@Name` and `@SwiftData.Name`.
    func attribute(named name: String) -> AttributeSyntax? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let typeName = attribute.attributeName.trimmedDescription
            if typeName == name || typeName == "SwiftData.\(name)" { return attribute }
        }
        return nil
    }

    /// True for `static` and `class` members, which are never persisted.
    var isStaticOrClass: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// True when the single binding is a computed property (an accessor block with `get`, or a bare getter body).
    var isComputed: Bool {
        guard let accessorBlock = bindings.first?.accessorBlock else { return false }
        switch accessorBlock.accessors {
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains {
                [.keyword(.get), .keyword(.set), .keyword(._read), .keyword(._modify)].contains(
                    $0.accessorSpecifier.tokenKind)
            }
        @unknown default:
            return false
        }
    }

    /// True when the declaration is `let`.
    var isLet: Bool { bindingSpecifier.tokenKind == .keyword(.let) }

    /// The declared type, if written.
    var declaredType: TypeSyntax? { bindings.first?.typeAnnotation?.type }

    /// The initial value expression, if written.
    var initialValue: ExprSyntax? { bindings.first?.initializer?.value }

    /// True when this stored property is persisted by `@Model`.
    var isPersistedByModel: Bool {
        guard singleIdentifier != nil, !isStaticOrClass, !isComputed else { return false }
        if hasAttribute(named: "Transient") { return false }
        if let name = singleIdentifier, name.hasPrefix("_$") { return false }
        return true
    }
}
