import Foundation
import SwiftSyntax
import Testing

@Suite struct ModelMacroTests {
    /// A model's accessors read each key path from a static copy made once; a generic class, which cannot have
    /// static stored properties, reads it from SwiftData's cache, which evaluates the literal once.
    @Test func keyPathsAreStaticExceptInGenericClasses() {
        let plain = expansion(of: "@Model final class Plain { var value: Int = 0 }").0.description
        #expect(plain.contains("private static let _$swiftDataKeyPath_value = \\Plain.value"))
        #expect(plain.contains("let keyPath = Plain._$swiftDataKeyPath_value"))

        let generic = expansion(of: "@Model final class Box<Content: Codable> { var content: Content }").0.description
        #expect(generic.contains("let keyPath = SwiftData._swiftDataKeyPath(Box.self, \"content\") {"))
        #expect(generic.contains("\\Box.content"))
        #expect(!generic.contains("static let _$swiftDataKeyPath_"))
    }

    @Test func expandsStoredPropertiesIntoBackingDataAccessors() {
        assertExpansion(
            """
            @Model
            final class Note {
                var title: String
                var pinned: Bool = false
                @Transient var scratch: String = ""
                var length: Int { title.count }
                static var count = 0
                init(title: String) {
                    self.title = title
                }
            }
            """,
            expands: #"""
                final class Note {
                    var title: String {
                        @storageRestrictions(accesses: _$backingData, initializes: _title)
                        init(initialValue) {
                            SwiftData._setInitialValue(of: _$backingData, slot: 0, forKey: \.title, to: initialValue)
                            _title = _SwiftDataNoType()
                        }
                        get {
                            let keyPath = Note._$swiftDataKeyPath_title
                            _$observationRegistrar.access(self, keyPath: keyPath)
                            return self._getValue(forKey: keyPath, slot: 0)
                        }
                        set {
                            let keyPath = Note._$swiftDataKeyPath_title
                            _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                                self._setValue(forKey: keyPath, slot: 0, to: newValue)
                            }
                        }
                    }
                    private var _title: _SwiftDataNoType

                    private static let _$swiftDataKeyPath_title = \Note.title
                    var pinned: Bool {
                        @storageRestrictions(accesses: _$backingData, initializes: _pinned)
                        init(initialValue) {
                            SwiftData._setInitialValue(of: _$backingData, slot: 1, forKey: \.pinned, to: initialValue)
                            _pinned = _SwiftDataNoType()
                        }
                        get {
                            let keyPath = Note._$swiftDataKeyPath_pinned
                            _$observationRegistrar.access(self, keyPath: keyPath)
                            return self._getValue(forKey: keyPath, slot: 1)
                        }
                        set {
                            let keyPath = Note._$swiftDataKeyPath_pinned
                            _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                                self._setValue(forKey: keyPath, slot: 1, to: newValue)
                            }
                        }
                    }
                    private var _pinned: _SwiftDataNoType

                    private static let _$swiftDataKeyPath_pinned = \Note.pinned
                    var scratch: String = ""
                    var length: Int { title.count }
                    static var count = 0
                    init(title: String) {
                        self.title = title
                    }

                    @exclusivity(unchecked)
                    private var _$backingData = SwiftData._ModelBacking<Note>(Note.createBackingData())

                    var persistentBackingData: any SwiftData.BackingData<Note> {
                        get {
                            _$backingData.backingData
                        }
                        set {
                            _$backingData = SwiftData._ModelBacking(newValue)
                        }
                    }

                    var _$swiftDataStorage: Swift.Unmanaged<Swift.AnyObject>? {
                        _$backingData.storageReference
                    }

                    static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                        return [
                        SwiftData.Schema.PropertyMetadata(name: "title", keypath: \Note.title, defaultValue: nil, metadata: nil),
                        SwiftData.Schema.PropertyMetadata(name: "pinned", keypath: \Note.pinned, defaultValue: (false) as Bool, metadata: nil)
                        ]
                    }

                    required init(backingData: any SwiftData.BackingData<Note>) {
                        _title = _SwiftDataNoType()
                        _pinned = _SwiftDataNoType()
                        _$backingData.adopt(backingData)
                    }

                    @exclusivity(unchecked)
                    private nonisolated(unsafe) var _$observationRegistrar = SwiftData._LazyObservationRegistrar()

                    internal nonisolated func access<_M>(keyPath: Swift.KeyPath<Note, _M>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<_M, _MR>(
                        keyPath: Swift.KeyPath<Note, _M>,
                        _ mutation: () throws -> _MR
                    ) rethrows -> _MR {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    nonisolated func _$swiftDataWithMutation(of keyPath: Swift.AnyKeyPath, _ mutation: () -> Swift.Void) {
                        if keyPath == \Note.title as Swift.AnyKeyPath {
                            _$observationRegistrar.withMutation(of: self, keyPath: \Note.title, mutation)
                        } else if keyPath == \Note.pinned as Swift.AnyKeyPath {
                            _$observationRegistrar.withMutation(of: self, keyPath: \Note.pinned, mutation)
                        } else {
                            mutation()
                        }
                    }

                    struct _SwiftDataNoType {
                    }
                }

                extension Note: SwiftData.PersistentModel {
                }

                extension Note: Observation.Observable {
                }

                @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Note's persistentModelID instead")
                extension Note: Swift.Sendable {
                }
                """#
        )
    }

    @Test(arguments: [
        ("struct", "@Model\nstruct Point {\n    var x: Int\n}"),
        ("enum", "@Model\nenum Kind {\n    case a\n}"),
        ("actor", "@Model\nactor Worker {\n    var x: Int = 0\n}"),
    ])
    func rejectsNonClassDeclarations(kind: String, source: String) {
        assertExpansion(
            source,
            diagnostics: ["@Model: '@Model' can only be applied to a class; '\(kind)' is not supported"]
        )
    }

    /// The slot `@Model` passes is the property's position among the persisted properties: transient and computed
    /// ones do not count. Subclasses pass none, since their properties follow their superclass's.
    @Test func rootClassAccessorsPassTheirSlotAndSubclassAccessorsDoNot() {
        let root = expandedText(
            of: """
                @Model
                class Trip {
                    var name: String
                    @Transient var draft: String = ""
                    var nights: Int { days - 1 }
                    var days: Int
                    init(name: String, days: Int) {
                        self.name = name
                        self.days = days
                    }
                }
                """
        )
        #expect(root.contains("_setInitialValue(of: _$backingData, slot: 0, forKey: \\.name"))
        #expect(root.contains("_setInitialValue(of: _$backingData, slot: 1, forKey: \\.days"))
        #expect(root.components(separatedBy: "slot: 1)").count == 2)
        #expect(!root.contains("slot: 2"))

        let subclass = expandedText(
            of: """
                @available(macOS 26, *)
                @Model
                class BusinessTrip: Trip {
                    var company: String
                    init(company: String) {
                        self.company = company
                        super.init(name: "", days: 1)
                    }
                }
                """,
            missingConformances: []
        )
        #expect(!subclass.contains("slot:"))
        #expect(subclass.contains("SwiftData._subclassValue(_$backingData"))
    }

    @Test func rejectsUnsupportedStoredTypes() {
        assertExpansion(
            """
            @Model
            final class Handler {
                var callback: () -> Void
                var pair: (Int, Int)
                var anything: Any
            }
            """,
            diagnostics: [
                "() -> Void: property 'callback' has type '() -> Void', which SwiftData cannot persist; use a Codable type, a model, or mark it '@Transient'",
                "(Int, Int): property 'pair' has type '(Int, Int)', which SwiftData cannot persist; use a Codable type, a model, or mark it '@Transient'",
                "Any: property 'anything' has type 'Any', which SwiftData cannot persist; use a Codable type, a model, or mark it '@Transient'",
            ]
        )
    }

    @Test func rejectsRelationshipOnAttributeType() {
        assertExpansion(
            """
            @Model
            final class Person {
                @Relationship(deleteRule: .cascade) var nickname: String
            }
            """,
            diagnostics: [
                "@Relationship(deleteRule: .cascade): '@Relationship' on 'nickname' requires a model type or a collection of models, not 'String'"
            ]
        )
    }

    @Test func rejectsTransientWithoutDefault() {
        assertExpansion(
            """
            @Model
            final class Cache {
                @Transient var hits: Int
                @Transient var note: String?
            }
            """,
            diagnostics: ["hits: Int: '@Transient' property 'hits' must have a default value"]
        )
    }
}
