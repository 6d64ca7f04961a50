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
        let access = classDecl.generatedMemberAccess
        let persisted = persistedProperties(of: classDecl, in: context)
        let stored = persisted.filter { !$0.isConstant }

        let metadataEntries = persisted.map { property in
            "SwiftData.Schema.PropertyMetadata(name: \(literal(property.bareName)), "
                + "keypath: \\\(typeName).\(property.name), "
                + "defaultValue: \(property.defaultValueExpression), metadata: \(property.metadataExpression))"
        }
        let metadataBody =
            metadataEntries.isEmpty
            ? "[]" : "[\n" + metadataEntries.map { "    " + $0 }.joined(separator: ",\n") + "\n]"
        // Written at the function body's indentation, since raw interpolation does not re-indent lines.
        let mutationBranches = stored.map { property in
            "if keyPath == \\\(typeName).\(property.name) as Swift.AnyKeyPath {\n"
                + "        _$observationRegistrar.withMutation(of: self, keyPath: \\\(typeName).\(property.name), mutation)\n"
                + "    } else "
        }.joined()

        if classDecl.isModelSubclass(missingConformances: protocols) {
            return subclassMembers(
                typeName: typeName,
                access: access,
                metadataBody: metadataBody,
                persisted: stored,
                mutationBranches: mutationBranches
            ) + [propertyKeyPathsMember(typeName: typeName, access: access, persisted: persisted, isSubclass: true)]
        }
        // A class whose first inherited type may be a superclass keeps values assigned in its initializer pending,
        // as a subclass does (its accessors cannot tell which it is), until `_$swiftDataFlushPending()`.
        let keepsPendingValues = classDecl.mayInheritModel
        let storageResets = stored.map {
            "_\($0.bareName) = " + (keepsPendingValues ? ".none\n" : "_SwiftDataNoType()\n")
        }.joined()
        // A `let` without a default is read back from the backing data; one with a default keeps it.
        let constantReads = persisted.filter { $0.isConstant && $0.variable.initialValue == nil }.map {
            "\nself.\($0.name) = SwiftData._subclassValue(_$backingData, forKey: \\\(typeName).\($0.name))"
        }.joined()
        let flushes =
            (keepsPendingValues ? pendingFlushes(typeName: typeName, persisted: stored) : "")
            + persisted.filter(\.isConstant).map {
                "    SwiftData._setInsertedValue(_$backingData, forKey: \\\(typeName).\($0.name), to: self.\($0.name))\n"
            }.joined()
        let flushMember: [DeclSyntax] =
            classDecl.isFinal && flushes.isEmpty
            ? [] : ["\(raw: access)func _$swiftDataFlushPending() {\n\(raw: flushes)}"]

        // A class that can be subclassed shares its backing data and registrar with its `@Model` subclasses, and
        // lets them extend its schema metadata.
        let isFinal = classDecl.isFinal
        let storageAccess = isFinal ? "private " : ""
        let typeMember = isFinal ? "static" : "class"
        let rootAlias: [DeclSyntax] = isFinal ? [] : ["typealias _SwiftDataRoot = \(raw: typeName)"]
        // A final class's schema metadata already has key paths rooted at it: `PersistentModel`'s default serves.
        let keyPathsMember: [DeclSyntax] =
            isFinal
            ? [] : [propertyKeyPathsMember(typeName: typeName, access: access, persisted: persisted, isSubclass: false)]
        // The backing data and the registrar are read by every property access. They are set only while the model
        // is initialized and when its registrar is first made, never while another access to them is in progress,
        // so the run-time exclusivity check on each read (a thread-local lookup) is left out.
        return rootAlias + flushMember + keyPathsMember + [
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
                \(raw: storageResets)_$backingData.adopt(backingData)\(raw: constantReads)
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
        let pendingResets = persisted.map { "_\($0.bareName) = .none\n" }.joined()
        let flushes = pendingFlushes(typeName: typeName, persisted: persisted)
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
            "\(raw: access)override func _$swiftDataFlushPending() {\n    super._$swiftDataFlushPending()\n\(raw: flushes)}",
            """
            \(raw: access)override nonisolated func _$swiftDataWithMutation(of keyPath: Swift.AnyKeyPath, _ mutation: () -> Swift.Void) {
                \(raw: mutationBranches){
                    super._$swiftDataWithMutation(of: keyPath, mutation)
                }
            }
            """,
        ]
    }

    /// `_$swiftDataPropertyKeyPaths`: the key paths of the persisted properties, rooted at the class it is called
    /// on, which may be a subclass. A subclass cannot name its superclass's properties, which it does not see, so
    /// each class writes its own, as literals rooted at a generic parameter constrained to the class, and
    /// instantiates them with `Self`: called on a subclass, `\_SwiftDataModel.name` is the subclass's `\Truck.name`.
    /// A subclass appends its own to its superclass's. (A literal rooted at `Self` itself fails at run time.)
    static func propertyKeyPathsMember(
        typeName: String,
        access: String,
        persisted: [PersistedProperty],
        isSubclass: Bool
    ) -> DeclSyntax {
        let keyPaths = persisted.map { "\\_SwiftDataModel.\($0.name)" }.joined(separator: ", ")
        let modifiers = access + (isSubclass ? "override " : "")
        let inherited = isSubclass ? "super._$swiftDataPropertyKeyPaths + " : ""
        return """
            \(raw: modifiers)class var _$swiftDataPropertyKeyPaths: [Swift.AnyKeyPath] {
                func keyPaths<_SwiftDataModel: \(raw: typeName)>(rootedAt _: _SwiftDataModel.Type) -> [Swift.AnyKeyPath] {
                    [\(raw: keyPaths)]
                }
                return \(raw: inherited)keyPaths(rootedAt: Self.self)
            }
            """
    }

    /// The statements of `_$swiftDataFlushPending()` that move values assigned before the backing data existed
    /// into it, written at the function body's indentation.
    static func pendingFlushes(typeName: String, persisted: [PersistedProperty]) -> String {
        persisted.map { property in
            let setter = property.variable.declaredType == nil ? "_setPendingSubclassValue" : "_setSubclassValue"
            return "    if case .pending(let value) = _\(property.bareName) {\n"
                + "        _\(property.bareName) = .none\n"
                + "        SwiftData.\(setter)(_$backingData, forKey: \\\(typeName).\(property.name), to: value)\n"
                + "    }\n"
        }.joined()
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
            diagnoseConstant(variable, named: name, in: classDecl, context: context)
            return []
        }
        // Without an annotation the compiler infers the type from the default, as it does for any stored property.
        guard let type = variable.declaredType else { return [attribute] }
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

    /// Diagnoses a persisted `let`. A `let` is stored in the instance and needs no accessors: SwiftData writes it
    /// into the backing data when the model is inserted and reads it back in `init(backingData:)`. A `let` with a
    /// default cannot be read back (Swift assigns it the default in every initializer), so it gets a warning; in a
    /// class that may have a `@Model` superclass, whose backing data a `let` cannot reach before `super.init`, it
    /// is an error.
    private static func diagnoseConstant(
        _ variable: VariableDeclSyntax,
        named name: String,
        in classDecl: ClassDeclSyntax,
        context: some MacroExpansionContext
    ) {
        let fixedSpecifier = variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))
        let fixIt = FixIt(
            message: MacroFixIt(message: "Replace 'let' with 'var'", id: "letToVar"),
            changes: [.replace(oldNode: Syntax(variable.bindingSpecifier), newNode: Syntax(fixedSpecifier))]
        )
        if classDecl.mayInheritModel {
            context.diagnose(
                Diagnostic(
                    node: variable.bindingSpecifier,
                    message: MacroDiagnostic.persistedPropertyIsLet(property: name),
                    fixIt: fixIt
                )
            )
        } else if variable.initialValue != nil {
            context.diagnose(
                Diagnostic(
                    node: variable.bindingSpecifier,
                    message: MacroDiagnostic.constantDefaultIsNotReadBack(property: name),
                    fixIt: fixIt
                )
            )
        }
    }

    /// `@_PersistedProperty`, with the property's slot for a class without a `@Model` superclass: its position
    /// among the persisted properties, the order the schema metadata lists them in. A subclass's properties come
    /// after its superclass's, at positions the subclass cannot see.
    private static func persistedPropertyAttribute(for name: String, in classDecl: ClassDeclSyntax) -> AttributeSyntax {
        guard !classDecl.mayInheritModel,
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
        guard let classDecl = declaration.as(ClassDeclSyntax.self),
            !classDecl.isModelSubclass(missingConformances: protocols)
        else { return [] }
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
