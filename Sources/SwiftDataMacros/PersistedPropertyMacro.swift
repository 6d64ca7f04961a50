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
        let bareName = name.withoutBackticks
        // In a `@Model` subclass, the backing data belongs to the superclass and does not exist yet while the
        // subclass's initializer assigns its own properties (before `super.init`). Those values wait in the peer
        // `_name` until `_$swiftDataFlushPending()` moves them into the backing data. A class whose first inherited
        // type may be a superclass does the same whichever it is, since these accessors cannot tell.
        if let subclass = context.enclosingClass,
            subclass.mayInheritModel
        {
            let keyPath = "\\\(subclass.name.trimmedDescription).\(name)"
            return [
                """
                @storageRestrictions(initializes: _\(raw: bareName))
                init(initialValue) {
                    _\(raw: bareName) = .pending(initialValue)
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

    /// The key path of a property, for its accessors: the class's static copy of it when the class can have one,
    /// a literal rooted at the class otherwise.
    static func keyPath(of name: String, in context: some MacroExpansionContext) -> String {
        if let owner = staticKeyPathOwner(in: context) { return "\(owner).\(keyPathPeerName(of: name))" }
        // A generic class reads its key paths from SwiftData's cache: a literal rooted at it would be made anew on
        // every access.
        guard let owner = context.enclosingClass?.name.trimmedDescription else { return "\\.\(name)" }
        return "SwiftData._swiftDataKeyPath(\(owner).self, \"\(name.withoutBackticks)\") { \\\(owner).\(name) }"
    }

    /// The name of the static copy of a property's key path.
    static func keyPathPeerName(of name: String) -> String { "_$swiftDataKeyPath_\(name.withoutBackticks)" }

    /// The name of the class that keeps static copies of its properties' key paths: the property's class, unless
    /// it or a type around it is generic (or an extension, which may be of a generic type), since generic types
    /// cannot have static stored properties.
    static func staticKeyPathOwner(in context: some MacroExpansionContext) -> String? {
        guard let owner = context.enclosingClass else { return nil }
        let isGeneric = context.lexicalContext.contains { declaration in
            declaration.is(ExtensionDeclSyntax.self)
                || declaration.asProtocol((any WithGenericParametersSyntax).self)?.genericParameterClause != nil
        }
        return isGeneric ? nil : owner.name.trimmedDescription
    }

    /// The accessors of a property of a class without a `@Model` superclass: `init` stores the initial value with
    /// `initial`, `get` and `set` call `read` and `write` with `keyPath` inside Observation's `access` and
    /// `withMutation`.
    static func accessors(name: String, keyPath: String, initial: String, read: String, write: String)
        -> [AccessorDeclSyntax]
    {
        [
            """
            @storageRestrictions(accesses: _$backingData, initializes: _\(raw: name.withoutBackticks))
            init(initialValue) {
                \(raw: initial)
                _\(raw: name.withoutBackticks) = _SwiftDataNoType()
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
        let bareName = name.withoutBackticks
        if let subclass = context.enclosingClass, subclass.mayInheritModel {
            // Without an annotation the pending value is kept as `Any`; the flush casts it back.
            let type = variable.declaredType?.trimmedDescription ?? "Any"
            return [
                """
                @Transient
                private var _\(raw: bareName): SwiftData._PendingValue<\(raw: type)>
                """
            ]
        }
        var peers: [DeclSyntax] = [
            """
            @Transient
            private var _\(raw: bareName): _SwiftDataNoType
            """
        ]
        // Every access passes the property's key path to Observation and to the backing data. A key path literal
        // is a call into the run time, a retain and a release on each evaluation (a sixth of reading an
        // attribute); a static one is made once and read like any constant.
        if let owner = staticKeyPathOwner(in: context) {
            peers.append("private static let \(raw: keyPathPeerName(of: name)) = \\\(raw: owner).\(raw: name)")
        }
        return peers
    }
}
