import SwiftSyntax

/// Protocols a model class commonly lists first. A class whose first inherited type is one of them, or that lists
/// none, cannot have a superclass; any other first inherited type may be a `@Model` superclass or a protocol.
let knownProtocolNames: Set<String> = [
    "Codable", "Decodable", "Encodable", "Identifiable", "Hashable", "Equatable", "Comparable", "Sendable",
    "CustomStringConvertible", "CustomDebugStringConvertible", "Observable", "ObservableObject", "PersistentModel",
    "SwiftData.PersistentModel", "AnyObject", "Error",
]

extension ClassDeclSyntax {
    /// True when the class's first inherited type may be a `@Model` superclass: it is not a well-known protocol.
    ///
    /// Syntax cannot tell a superclass from a protocol, so the macro roles that only see syntax (the accessors of
    /// each property) write code that works either way for such a class, and the roles the compiler tells the
    /// class's conformances to decide with them: a class whose superclass is a `@Model` already conforms to
    /// `PersistentModel`.
    var mayInheritModel: Bool {
        guard let first = inheritanceClause?.inheritedTypes.first?.type.trimmedDescription else { return false }
        return !knownProtocolNames.contains(first)
    }

    /// True for a class that inherits from a `@Model` class, judged from the conformances the compiler reports
    /// missing: such a class already conforms to `PersistentModel` through its superclass.
    func isModelSubclass(missingConformances protocols: [TypeSyntax]) -> Bool {
        mayInheritModel && !protocols.contains { $0.trimmedDescription.hasSuffix("PersistentModel") }
    }

    /// The access modifier, with a trailing space, of the members `@Model` generates: the class's own for `public`
    /// (and `open`) and `package` classes, whose conformance to `PersistentModel` needs members that visible.
    var generatedMemberAccess: String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// True when the class is declared `final`.
    var isFinal: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.final) }
    }
}

extension ExprSyntax {
    /// True for literals whose type the compiler infers without context (`0`, `"a"`, `true`, `1.5`).
    var isLiteral: Bool {
        self.is(IntegerLiteralExprSyntax.self) || self.is(StringLiteralExprSyntax.self)
            || self.is(BooleanLiteralExprSyntax.self) || self.is(FloatLiteralExprSyntax.self)
    }
}

extension TokenSyntax {
    var trimmedText: String { trimmedDescription }
}

extension String {
    /// An identifier as written (`` `default` ``) without its backticks (`default`), for names made from it
    /// (`_default`) and for its name in the schema.
    var withoutBackticks: String {
        filter { $0 != "`" }
    }
}
