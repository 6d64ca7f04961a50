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
        // In a `@Model` subclass, the backing data belongs to the superclass and does not exist yet while the
        // subclass's initializer assigns its own properties (before `super.init`). Those values wait in the peer
        // `_name` until `_$swiftDataFlushPending()` moves them into the backing data.
        if let subclass = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first,
            subclass.isModelSubclass
        {
            let keyPath = "\\\(subclass.name.trimmedDescription).\(name)"
            return [
                """
                @storageRestrictions(initializes: _\(raw: name))
                init(initialValue) {
                    _\(raw: name) = .pending(initialValue)
                }
                """,
                """
                get {
                    _$observationRegistrar.access(self, keyPath: \\.\(raw: name))
                    _$swiftDataFlushPending()
                    return SwiftData._subclassValue(_$backingData, forKey: \(raw: keyPath))
                }
                """,
                """
                set {
                    _$observationRegistrar.withMutation(of: self, keyPath: \\.\(raw: name)) {
                        _$swiftDataFlushPending()
                        SwiftData._setSubclassValue(_$backingData, forKey: \(raw: keyPath), to: newValue)
                    }
                }
                """,
            ]
        }
        // Attributes stored through a value transformer may hold values that are not Codable.
        let isTransformable =
            variable.attribute(named: "Attribute")?.arguments?.trimmedDescription.contains("transformable") ?? false
        let get = isTransformable ? "getTransformableValue" : "getValue"
        let set = isTransformable ? "setTransformableValue" : "setValue"
        // One key path serves Observation and the backing data: each literal costs a run-time lookup per access.
        let keyPath =
            context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first.map {
                "\\\($0.name.trimmedDescription).\(name)"
            } ?? "\\.\(name)"
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
                let keyPath = \(raw: keyPath)
                _$observationRegistrar.access(self, keyPath: keyPath)
                return self.\(raw: get)(forKey: keyPath)
            }
            """,
            """
            set {
                let keyPath = \(raw: keyPath)
                _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                    self.\(raw: set)(forKey: keyPath, to: newValue)
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
        if let subclass = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first,
            subclass.isModelSubclass, let type = variable.declaredType
        {
            return [
                """
                @Transient
                private var _\(raw: name): SwiftData._PendingValue<\(raw: type.trimmedDescription)>
                """
            ]
        }
        return [
            """
            @Transient
            private var _\(raw: name): _SwiftDataNoType
            """
        ]
    }
}
