import Foundation
import SwiftSyntax
import Testing

/// Shapes of `@Model` classes that real SwiftData code has and Apple's macro accepts.
@Suite struct ModelMacroCompatibilityTests {
    @Test func untypedDefaultsThatAreNotLiteralsAreAccepted() {
        assertExpansion(
            """
            @Model
            final class Budget {
                public private(set) var income = Decimal.zero
                var placement = VideoPlacement.defaultPlacement
            }
            """
        )
        let text = expandedText(of: "@Model final class Budget { var income = Decimal.zero }")
        #expect(text.contains("defaultValue: Decimal.zero"))
    }

    @Test(arguments: [("package", "package "), ("public", "public "), ("open", "public "), ("", "")])
    func generatedMembersTakeTheClassAccessLevel(modifier: String, access: String) {
        let text = expandedText(of: "@Model \(modifier) class Note { var text: String = \"\" }")
        #expect(text.contains("\(access)var persistentBackingData: any SwiftData.BackingData<Note>"))
        #expect(text.contains("\(access)required init(backingData: any SwiftData.BackingData<Note>)"))
        #expect(text.contains("\(access)class var schemaMetadata"))
        #expect(text.contains("\(access)var _$swiftDataStorage"))
    }

    /// Whether a class is a `@Model` subclass comes from its inherited type (the compiler reports a subclass of a
    /// `@Model` as conforming to `PersistentModel` already), never from an `@available` attribute.
    @Test func subclassingIsDecidedByTheInheritedTypeNotByAvailability() {
        let source = """
            @available(macOS 14, iOS 17, *)
            @Model
            final class UserLanguage: IdentifiableObject {
                var code: String
                init(code: String) {
                    self.code = code
                }
            }
            """
        let root = expandedText(of: source)
        #expect(root.contains("extension UserLanguage: SwiftData.PersistentModel"))
        #expect(root.contains("var _$backingData = SwiftData._ModelBacking<UserLanguage>"))
        #expect(!root.contains("override"))
        // Its accessors cannot tell a protocol from a superclass, so its initial values wait for the flush.
        #expect(root.contains("func _$swiftDataFlushPending()"))
        #expect(root.contains("_code = .none"))

        let subclass = expandedText(of: source, missingConformances: [])
        #expect(subclass.contains("override class var schemaMetadata"))
        #expect(!subclass.contains("extension UserLanguage: SwiftData.PersistentModel"))

        let plain = expandedText(of: "@Model final class Tag: Identifiable { var name: String = \"\" }")
        #expect(!plain.contains("_$swiftDataFlushPending"))
        #expect(plain.contains("slot: 0"))
    }

    /// A class that can be subclassed lists its properties' key paths rooted at the class it is called on, so that a
    /// subclass, which cannot name its superclass's properties, gets `\Truck.name` for an inherited `name`.
    @Test func classesThatCanBeSubclassedListKeyPathsRootedAtTheCallingClass() {
        let source = "@Model class Vehicle { var name: String = \"\"; var `default`: Int = 0 }"
        let root = expandedText(of: source)
        #expect(root.contains("class var _$swiftDataPropertyKeyPaths: [Swift.AnyKeyPath] {"))
        #expect(root.contains("func keyPaths<_SwiftDataModel: Vehicle>(rootedAt _: _SwiftDataModel.Type)"))
        #expect(root.contains("[\\_SwiftDataModel.name, \\_SwiftDataModel.`default`]"))
        #expect(root.contains("return keyPaths(rootedAt: Self.self)"))
        #expect(!root.contains("override class var _$swiftDataPropertyKeyPaths"))

        let subclass = expandedText(of: "@Model class Truck: Vehicle { var payload: Int = 0 }", missingConformances: [])
        #expect(subclass.contains("override class var _$swiftDataPropertyKeyPaths: [Swift.AnyKeyPath] {"))
        #expect(subclass.contains("[\\_SwiftDataModel.payload]"))
        #expect(subclass.contains("return super._$swiftDataPropertyKeyPaths + keyPaths(rootedAt: Self.self)"))

        // A final class's schema metadata is already rooted at it.
        #expect(!expandedText(of: "@Model final class Tag { var name: String = \"\" }").contains("KeyPaths"))
        assertExpansion(source)
    }

    @Test func keywordNamesInBackticksMakeValidNames() {
        assertExpansion(
            """
            @Model
            final class Preference {
                var `default`: Bool = false
                var `where`: String = ""
            }
            """
        )
        let text = expandedText(of: "@Model final class Preference { var `default`: Bool = false }")
        #expect(text.contains("private var _default: _SwiftDataNoType"))
        #expect(text.contains("_$swiftDataKeyPath_default = \\Preference.`default`"))
        #expect(text.contains("PropertyMetadata(name: \"default\""))
    }

    @Test func letPropertiesAreStoredAtInsertAndReadBack() {
        assertExpansion(
            """
            @Model
            final class Visit {
                let identifier: UUID
                init(identifier: UUID) {
                    self.identifier = identifier
                }
            }
            """
        )
        let text = expandedText(of: "@Model final class Visit { let identifier: UUID; init() { identifier = UUID() } }")
        #expect(text.contains("self.identifier = SwiftData._subclassValue(_$backingData, forKey: \\Visit.identifier)"))
        #expect(
            text.contains("SwiftData._setInsertedValue(_$backingData, forKey: \\Visit.identifier, to: self.identifier)")
        )
        #expect(!text.contains("@_PersistedProperty"))
    }

    @Test func aLetWithADefaultWarnsThatTheDefaultComesBack() {
        assertExpansion(
            """
            @Model
            final class Visit {
                let visitDate = Date()
            }
            """,
            diagnostics: [
                "let: 'let' property 'visitDate' is stored when the model is inserted, but a model read from the store gets its default again; declare it with 'var' to read the stored value"
            ]
        )
    }

    @Test func aLetInAClassThatMayInheritAModelIsRejected() {
        assertExpansion(
            """
            @Model
            class Fixed: Base {
                let id: Int
            }
            """,
            diagnostics: [
                "let: persisted property 'id' must be declared with 'var' in a class that may inherit from a model"
            ],
            missingConformances: []
        )
    }
}
