// The compiler plugin that hosts the SwiftData macros. It holds no logic: a table from macro type names to the
// implementations in `SwiftDataMacros`, and the toolchain's stdin/stdout message connection.
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftDataMacros
import SwiftSyntaxMacros

/// Maps the `#externalMacro(module:type:)` names declared by the `SwiftData` module to their implementations.
struct SwiftDataMacrosProvider: PluginProvider {
    let macros: [String: any Macro.Type] = [
        "ModelMacro": ModelMacro.self,
        "PersistedPropertyMacro": PersistedPropertyMacro.self,
        "AttributeMacro": AttributeMacro.self,
        "RelationshipMacro": RelationshipMacro.self,
        "TransientMacro": TransientMacro.self,
        "UniqueMacro": UniqueMacro.self,
        "IndexMacro": IndexMacro.self,
        "ModelActorMacro": ModelActorMacro.self,
    ]

    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        guard let macro = macros[typeName] else { throw UnknownMacroError(typeName: typeName) }
        return macro
    }

    func loadPluginLibrary(libraryPath: String, moduleName: String) throws {
        throw UnknownMacroError(typeName: moduleName)
    }

    var features: [PluginFeature] { [] }
}

/// Thrown when the compiler asks for a macro this plugin does not provide.
struct UnknownMacroError: Error, CustomStringConvertible {
    let typeName: String
    var description: String { "SwiftDataMacrosPlugin provides no macro named '\(typeName)'" }
}

// `StandardIOMessageConnection` reads each length-prefixed JSON message in full (looping over short reads).
let connection = try StandardIOMessageConnection()
let listener = CompilerPluginMessageListener(connection: connection, provider: SwiftDataMacrosProvider())
try listener.main()
