import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `@Model`: turns a class into a persistent model.
///
/// The expansion follows the shape of Apple's: stored properties get `@_PersistedProperty` (accessors over the
/// backing data with Observation calls), and the class gets `_$backingData`, `persistentBackingData`,
/// `schemaMetadata`, `init(backingData:)`, an observation registrar and the `PersistentModel` and `Observable`
/// conformances. `Sendable` is marked unavailable, with Apple's message. Where Apple's `_$backingData` holds the
/// backing data itself, ours is a `_ModelBacking` that also keeps the SwiftData storage behind it, which the
/// accessors reach through `_$swiftDataStorage` without copying the backing data's existential.
public enum ModelMacro {}

// MARK: - Member

extension ModelMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(
                Diagnostic(node: node, message: MacroDiagnostic.modelRequiresClass(kind: kindName(of: declaration))))
            return []
        }
        let typeName = classDecl.name.trimmedText
        let access = classDecl.isPublicOrOpen ? "public " : ""
        let persisted = persistedProperties(of: classDecl, in: context)

        let metadataEntries = persisted.map { property in
            "SwiftData.Schema.PropertyMetadata(name: \(literal(property.name)), keypath: \\\(typeName).\(property.name), "
                + "defaultValue: \(property.defaultValueExpression), metadata: \(property.metadataExpression))"
        }
        let metadataBody =
            metadataEntries.isEmpty
            ? "[]" : "[\n" + metadataEntries.map { "    " + $0 }.joined(separator: ",\n") + "\n]"
        let noTypeAssignments = persisted.map { "_\($0.name) = _SwiftDataNoType()\n" }.joined()
        // Written at the function body's indentation, since raw interpolation does not re-indent lines.
        let mutationBranches = persisted.map { property in
            "if keyPath == \\\(typeName).\(property.name) as Swift.AnyKeyPath {\n"
                + "        _$observationRegistrar.withMutation(of: self, keyPath: \\\(typeName).\(property.name), mutation)\n"
                + "    } else "
        }.joined()

        if classDecl.isModelSubclass {
            return subclassMembers(
                typeName: typeName,
                access: access,
                metadataBody: metadataBody,
                persisted: persisted,
                mutationBranches: mutationBranches
            )
        }
        // A class that can be subclassed shares its backing data and registrar with its `@Model` subclasses, and
        // lets them extend its schema metadata.
        let isFinal = classDecl.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        let storageAccess = isFinal ? "private " : ""
        let typeMember = isFinal ? "static" : "class"
        let rootAlias: [DeclSyntax] =
            isFinal
            ? []
            : [
                "typealias _SwiftDataRoot = \(raw: typeName)",
                "\(raw: access)func _$swiftDataFlushPending() {\n}",
            ]
        // The backing data and the registrar are read by every property access. They are set only while the model
        // is initialized and when its registrar is first made, never while another access to them is in progress,
        // so the run-time exclusivity check on each read (a thread-local lookup) is left out.
        return rootAlias + [
            """
            @Transient @exclusivity(unchecked)
            \(raw: storageAccess)var _$backingData = SwiftData._ModelBacking<\(raw: typeName)>(\(raw: typeName).createBackingData())
            """,
            """
            \(raw: access)var persistentBackingData: any SwiftData.BackingData<\(raw: typeName)> {
                get {
                    _$backingData.backingData
                }
                set {
                    _$backingData = SwiftData._ModelBacking(newValue)
                }
            }
            """,
            """
            \(raw: access)var _$swiftDataStorage: Swift.Unmanaged<Swift.AnyObject>? {
                _$backingData.storageReference
            }
            """,
            """
            \(raw: access)\(raw: typeMember) var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                return \(raw: metadataBody)
            }
            """,
            """
            \(raw: access)required init(backingData: any SwiftData.BackingData<\(raw: typeName)>) {
                \(raw: noTypeAssignments)_$backingData.adopt(backingData)
            }
            """,
            """
            @Transient @exclusivity(unchecked)
            \(raw: storageAccess)nonisolated(unsafe) var _$observationRegistrar = SwiftData._LazyObservationRegistrar()
            """,
            """
            internal nonisolated func access<_M>(keyPath: Swift.KeyPath<\(raw: typeName), _M>) {
                _$observationRegistrar.access(self, keyPath: keyPath)
            }
            """,
            """
            internal nonisolated func withMutation<_M, _MR>(
                keyPath: Swift.KeyPath<\(raw: typeName), _M>,
                _ mutation: () throws -> _MR
            ) rethrows -> _MR {
                try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
            }
            """,
            """
            \(raw: access)nonisolated func _$swiftDataWithMutation(of keyPath: Swift.AnyKeyPath, _ mutation: () -> Swift.Void) {
                \(raw: mutationBranches){
                    mutation()
                }
            }
            """,
            """
            struct _SwiftDataNoType {
            }
            """,
        ]
    }

    /// The members of a `@Model` subclass of a `@Model` class: it extends the superclass's schema metadata,
    /// initializer and observation hook, and reuses its backing data and registrar.
    static func subclassMembers(
        typeName: String,
        access: String,
        metadataBody: String,
        persisted: [PersistedProperty],
        mutationBranches: String
    ) -> [DeclSyntax] {
        let pendingResets = persisted.map { "_\($0.name) = .none\n" }.joined()
        // Written at the function body's indentation, since raw interpolation does not re-indent lines.
        let flushes = persisted.map { property in
            "if case .pending(let value) = _\(property.name) {\n"
                + "        _\(property.name) = .none\n"
                + "        SwiftData._setSubclassValue(_$backingData, forKey: \\\(typeName).\(property.name), to: value)\n"
                + "    }\n"
        }.joined()
        return [
            """
            \(raw: access)override class var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                return super.schemaMetadata + \(raw: metadataBody)
            }
            """,
            """
            \(raw: access)required init(backingData: any SwiftData.BackingData<_SwiftDataRoot>) {
                \(raw: pendingResets)super.init(backingData: backingData)
            }
            """,
            """
            \(raw: access)override func _$swiftDataFlushPending() {
                super._$swiftDataFlushPending()
                \(raw: flushes)
            }
            """,
            """
            \(raw: access)override nonisolated func _$swiftDataWithMutation(of keyPath: Swift.AnyKeyPath, _ mutation: () -> Swift.Void) {
                \(raw: mutationBranches){
                    super._$swiftDataWithMutation(of: keyPath, mutation)
                }
            }
            """,
        ]
    }

    /// The stored properties `@Model` persists, in declaration order, with diagnostics for misuse.
    static func persistedProperties(
        of classDecl: ClassDeclSyntax,
        in context: some MacroExpansionContext
    ) -> [PersistedProperty] {
        for member in classDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.hasAttribute(named: "Transient")
            else { continue }
            diagnoseTransient(variable, in: context)
        }
        return persistedVariables(of: classDecl).compactMap { variable in
            variable.singleIdentifier.map { PersistedProperty(variable: variable, name: $0) }
        }
    }

    /// The stored properties `@Model` persists, in declaration order: the order of the schema metadata, and so of
    /// the slots.
    static func persistedVariables(of classDecl: ClassDeclSyntax) -> [VariableDeclSyntax] {
        classDecl.memberBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }.filter(\.isPersistedByModel)
    }

    private static func diagnoseTransient(_ variable: VariableDeclSyntax, in context: some MacroExpansionContext) {
        guard !variable.isComputed, !variable.isStaticOrClass, variable.initialValue == nil,
            let name = variable.singleIdentifier, let binding = variable.bindings.first
        else { return }
        // Optionals get an implicit nil, so only non-optional types need a written default.
        if let type = variable.declaredType, type.unwrappedOptional.trimmedDescription != type.trimmedDescription {
            return
        }
        context.diagnose(
            Diagnostic(
                node: binding,
                message: MacroDiagnostic.transientWithoutDefault(property: name)
            )
        )
    }

    static func kindName(of declaration: some DeclGroupSyntax) -> String {
        if declaration.is(ClassDeclSyntax.self) { return "class" }
        if declaration.is(StructDeclSyntax.self) { return "struct" }
        if declaration.is(EnumDeclSyntax.self) { return "enum" }
        if declaration.is(ActorDeclSyntax.self) { return "actor" }
        if declaration.is(ProtocolDeclSyntax.self) { return "protocol" }
        if declaration.is(ExtensionDeclSyntax.self) { return "extension" }
        return "declaration"
    }

    static func literal(_ text: String) -> String {
        "\"" + text + "\""
    }
}

// MARK: - Member Attribute

extension ModelMacro: MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self), let variable = member.as(VariableDeclSyntax.self),
            variable.isPersistedByModel, let name = variable.singleIdentifier
        else { return [] }
        let attribute = persistedPropertyAttribute(for: name, in: classDecl)
        if variable.isLet {
            let fixedSpecifier = variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))
            context.diagnose(
                Diagnostic(
                    node: variable.bindingSpecifier,
                    message: MacroDiagnostic.persistedPropertyIsLet(property: name),
                    fixIt: FixIt(
                        message: MacroFixIt(message: "Replace 'let' with 'var'", id: "letToVar"),
                        changes: [.replace(oldNode: Syntax(variable.bindingSpecifier), newNode: Syntax(fixedSpecifier))]
                    )
                )
            )
            return []
        }
        guard let type = variable.declaredType else {
            if variable.initialValue?.isLiteral != true, let binding = variable.bindings.first {
                context.diagnose(
                    Diagnostic(node: binding, message: MacroDiagnostic.missingTypeAnnotation(property: name)))
                return []
            }
            return [attribute]
        }
        if type.unsupportedPersistenceReason {
            context.diagnose(
                Diagnostic(
                    node: type,
                    message: MacroDiagnostic.unsupportedStoredType(property: name, type: type.trimmedDescription))
            )
            return []
        }
        if let relationship = variable.attribute(named: "Relationship"), type.isPlainlyAttributeType {
            context.diagnose(
                Diagnostic(
                    node: relationship,
                    message: MacroDiagnostic.relationshipOnNonModel(property: name, type: type.trimmedDescription)
                )
            )
        }
        return [attribute]
    }

    /// `@_PersistedProperty`, with the property's slot for a class without a `@Model` superclass: its position
    /// among the persisted properties, the order the schema metadata lists them in. A subclass's properties come
    /// after its superclass's, at positions the subclass cannot see.
    private static func persistedPropertyAttribute(for name: String, in classDecl: ClassDeclSyntax) -> AttributeSyntax {
        guard !classDecl.isModelSubclass,
            let slot = persistedVariables(of: classDecl).firstIndex(where: { $0.singleIdentifier == name })
        else { return "@_PersistedProperty" }
        return "@_PersistedProperty(slot: \(raw: slot))"
    }
}

// MARK: - Extension

extension ModelMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self), !classDecl.isModelSubclass else { return [] }
        let typeName = type.trimmedDescription
        let message =
            "PersistentModels are not Sendable, consider utilizing a ModelActor or use \(classDecl.name.trimmedText)'s "
            + "persistentModelID instead"
        return [
            try ExtensionDeclSyntax("extension \(raw: typeName): SwiftData.PersistentModel {\n}"),
            try ExtensionDeclSyntax("extension \(raw: typeName): Observation.Observable {\n}"),
            try ExtensionDeclSyntax(
                """
                @available(*, unavailable, message: \(literal: message))
                extension \(raw: typeName): Swift.Sendable {
                }
                """
            ),
        ]
    }
}

// MARK: - Internal

/// One stored property that `@Model` persists.
struct PersistedProperty {
    let variable: VariableDeclSyntax
    let name: String

    /// The `defaultValue:` argument of the property's metadata: the declared initial value, typed by its annotation.
    var defaultValueExpression: String {
        guard let value = variable.initialValue?.trimmedDescription else { return "nil" }
        guard let type = variable.declaredType?.trimmedDescription else { return value }
        return "(\(value)) as \(type)"
    }

    /// The `metadata:` argument: an `Attribute` or `Relationship` built from the property's macro arguments.
    var metadataExpression: String {
        for (macro, schemaType) in [("Attribute", "Attribute"), ("Relationship", "Relationship")] {
            guard let attribute = variable.attribute(named: macro) else { continue }
            let arguments = attribute.arguments?.trimmedDescription ?? ""
            // `inverse: nil` means "no inverse", which the initializer cannot tell from an omitted argument.
            let isUnidirectional =
                attribute.arguments?.as(LabeledExprListSyntax.self)?.contains {
                    $0.label?.text == "inverse" && $0.expression.is(NilLiteralExprSyntax.self)
                } ?? false
            return "SwiftData.Schema.\(schemaType)(\(arguments))" + (isUnidirectional ? "._unidirectional()" : "")
        }
        return "nil"
    }
}

/// Protocols a model class commonly lists first; any other first inherited type of an `@available` class is taken
/// to be a `@Model` superclass.
let knownProtocolNames: Set<String> = [
    "Codable", "Decodable", "Encodable", "Identifiable", "Hashable", "Equatable", "Comparable", "Sendable",
    "CustomStringConvertible", "CustomDebugStringConvertible", "Observable", "ObservableObject", "PersistentModel",
    "SwiftData.PersistentModel", "AnyObject", "Error",
]

extension ClassDeclSyntax {
    /// True for a `@Model` subclass of a `@Model` class. Like Apple's, such subclasses carry an `@available`
    /// attribute (iOS 26 and later there); that, and a first inherited type that is not a well-known protocol,
    /// tell them apart from model classes that only adopt protocols.
    var isModelSubclass: Bool {
        guard
            attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "available" }
            ),
            let first = inheritanceClause?.inheritedTypes.first?.type.trimmedDescription
        else { return false }
        return !knownProtocolNames.contains(first)
    }

    var isPublicOrOpen: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.public) || $0.name.tokenKind == .keyword(.open) }
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
