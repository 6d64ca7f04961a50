public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@_PersistedProperty`: the accessors `@Model` gives each persisted stored property.
///
/// The `init` accessor writes the initial value into the backing data, so a plain designated initialiser
/// (`self.title = title`) and a declared default both land there. `get` and `set` go through the backing data with
/// Observation's `access` and `withMutation`.
public enum PersistedPropertyMacro {}

// MARK: - Accessors

extension PersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let name = variable.singleIdentifier else {
            return []
        }
        // Attributes stored through a value transformer may hold values that are not Codable.
        let isTransformable =
            variable.attribute(named: "Attribute")?.arguments?.trimmedDescription.contains("transformable") ?? false
        let get = isTransformable ? "getTransformableValue" : "getValue"
        let set = isTransformable ? "setTransformableValue" : "setValue"
        return [
            """
            @storageRestrictions(accesses: _$backingData, initializes: _\(raw: name))
            init(initialValue) {
                _$backingData.\(raw: set)(forKey: \\.\(raw: name), to: initialValue)
                _\(raw: name) = _SwiftDataNoType()
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: \\.\(raw: name))
                return self.\(raw: get)(forKey: \\.\(raw: name))
            }
            """,
            """
            set {
                _$observationRegistrar.withMutation(of: self, keyPath: \\.\(raw: name)) {
                    self.\(raw: set)(forKey: \\.\(raw: name), to: newValue)
                }
            }
            """,
        ]
    }
}

// MARK: - Peer

extension PersistedPropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let name = variable.singleIdentifier else {
            return []
        }
        return [
            """
            @Transient
            private var _\(raw: name): _SwiftDataNoType
            """
        ]
    }
}
