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
        let keyPath = keyPath(of: name, in: context)
        // With the property's slot, SwiftData's backing data needs no search for it.
        if !isTransformable, let slot = slot(in: node) {
            return accessors(
                name: name,
                keyPath: keyPath,
                initial:
                    "SwiftData._setInitialValue(of: _$backingData, slot: \(slot), forKey: \\.\(name), to: initialValue)",
                read: "self._getValue(forKey: keyPath, slot: \(slot))",
                write: "self._setValue(forKey: keyPath, slot: \(slot), to: newValue)"
            )
        }
        let get = isTransformable ? "getTransformableValue" : "getValue"
        let set = isTransformable ? "setTransformableValue" : "setValue"
        return accessors(
            name: name,
            keyPath: keyPath,
            initial: "_$backingData.backingData.\(set)(forKey: \\.\(name), to: initialValue)",
            read: "self.\(get)(forKey: keyPath)",
            write: "self.\(set)(forKey: keyPath, to: newValue)"
        )
    }
}

extension PersistedPropertyMacro {
    /// The `slot:` argument `@Model` gives the attribute, if any.
    static func slot(in node: AttributeSyntax) -> Int? {
        guard case .argumentList(let arguments) = node.arguments,
            let argument = arguments.first(where: { $0.label?.text == "slot" }),
            let literal = argument.expression.as(IntegerLiteralExprSyntax.self),
            let slot = Int(literal.literal.text), slot >= 0
        else { return nil }
        return slot
    }

    /// The key path literal of a property; one serves Observation and the backing data, since each literal costs
    /// a run-time lookup per access.
    static func keyPath(of name: String, in context: some MacroExpansionContext) -> String {
        context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first.map {
            "\\\($0.name.trimmedDescription).\(name)"
        } ?? "\\.\(name)"
    }

    /// The accessors of a property of a class without a `@Model` superclass: `init` stores the initial value with
    /// `initial`, `get` and `set` call `read` and `write` with `keyPath` inside Observation's `access` and
    /// `withMutation`.
    static func accessors(name: String, keyPath: String, initial: String, read: String, write: String)
        -> [AccessorDeclSyntax]
    {
        [
            """
            @storageRestrictions(accesses: _$backingData, initializes: _\(raw: name))
            init(initialValue) {
                \(raw: initial)
                _\(raw: name) = _SwiftDataNoType()
            }
            """,
            """
            get {
                let keyPath = \(raw: keyPath)
                _$observationRegistrar.access(self, keyPath: keyPath)
                return \(raw: read)
            }
            """,
            """
            set {
                let keyPath = \(raw: keyPath)
                _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                    \(raw: write)
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
