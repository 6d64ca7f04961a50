// swift-tools-version: 6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

// MARK: - Host SwiftSyntax

// The build machines cannot fetch packages, so the macros build on the SwiftSyntax that ships prebuilt inside the
// toolchain (`<toolchain>/usr/lib/swift/host`). Everything that depends on that directory lives in this block.
//
// - `SWIFTDATA_HOST_SYNTAX_DIR` overrides the directory (default: found from the `swiftc` on `PATH`).
// - `SWIFTDATA_USE_SWIFT_SYNTAX_PACKAGE=1` switches to the upstream swift-syntax package instead, for consumers that
//   depend on this package remotely (where `unsafeFlags` are not allowed) and can fetch packages.
let environment = ProcessInfo.processInfo.environment
let usesSwiftSyntaxPackage = environment["SWIFTDATA_USE_SWIFT_SYNTAX_PACKAGE"] == "1"

let hostSyntaxDirectory: String = {
    if let explicit = environment["SWIFTDATA_HOST_SYNTAX_DIR"] { return explicit }
    let searchPath = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for directory in searchPath {
        let candidate = URL(fileURLWithPath: directory).appendingPathComponent("swiftc")
        guard FileManager.default.fileExists(atPath: candidate.path) else { continue }
        let compiler = candidate.resolvingSymlinksInPath()
        let toolchain = compiler.deletingLastPathComponent().deletingLastPathComponent()
        return toolchain.appendingPathComponent("lib/swift/host").path
    }
    return "/usr/lib/swift/host"
}()

let hostSyntaxLibraries = [
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser",
    "SwiftParserDiagnostics", "SwiftOperators", "SwiftBasicFormat", "SwiftSyntaxMacroExpansion",
    "SwiftCompilerPluginMessageHandling", "SwiftIDEUtils",
]

let hostSyntaxSwiftSettings: [SwiftSetting] =
    usesSwiftSyntaxPackage ? [] : [.unsafeFlags(["-I", hostSyntaxDirectory])]

let hostSyntaxLinkerSettings: [LinkerSetting] =
    usesSwiftSyntaxPackage
    ? []
    : [.unsafeFlags(["-L", hostSyntaxDirectory, "-Xlinker", "-rpath", "-Xlinker", hostSyntaxDirectory])]
        + hostSyntaxLibraries.map { .linkedLibrary($0) }

let swiftSyntaxProducts: [Target.Dependency] =
    usesSwiftSyntaxPackage
    ? [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
    ]
    : []

let swiftSyntaxTestProducts: [Target.Dependency] =
    usesSwiftSyntaxPackage
    ? [
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftOperators", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
    ]
    : []

let packageDependencies: [Package.Dependency] =
    usesSwiftSyntaxPackage ? [.package(url: "https://github.com/swiftlang/swift-syntax.git", from: "602.0.0")] : []

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let macroSwiftSettings: [SwiftSetting] = strictSettings + hostSyntaxSwiftSettings
let macroDependencies: [Target.Dependency] = ["SwiftDataMacros"] + swiftSyntaxProducts
let macroTestDependencies: [Target.Dependency] = ["SwiftDataMacros"] + swiftSyntaxTestProducts

let package = Package(
    name: "OpenSwiftData",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "SwiftData", targets: ["SwiftData"]),
        // The PostgreSQL store is a library of its own, so that apps on SQLite alone never link libpq.
        .library(name: "SwiftDataPostgreSQL", targets: ["SwiftDataPostgreSQL"]),
        // The sync engine: replicas that edit offline and converge through a PostgreSQL server.
        .library(name: "SwiftDataSync", targets: ["SwiftDataSync"]),
        .executable(name: "projects-example", targets: ["ProjectsExample"]),
        .executable(name: "json-store-example", targets: ["JSONStoreExample"]),
        .executable(name: "LiveTasksExample", targets: ["LiveTasksExample"]),
        .executable(name: "notes-sync-example", targets: ["NotesSyncExample"]),
        .executable(name: "swiftdata", targets: ["SwiftDataCommand"]),
    ],
    dependencies: packageDependencies,
    targets: [
        // MARK: - Targets
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "SwiftData",
            dependencies: ["CSQLite", "SwiftDataMacrosPlugin"],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "SwiftDataPostgreSQL",
            dependencies: ["SwiftData", "CLibPQ"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SwiftDataSync",
            dependencies: ["SwiftData", "SwiftDataPostgreSQL"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SwiftDataTool",
            dependencies: ["SwiftData"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "SwiftDataCommand",
            dependencies: ["SwiftDataTool"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ProjectsExample",
            dependencies: ["SwiftData"],
            path: "Examples/ProjectsExample",
            swiftSettings: strictSettings
        ),
        // WWDC24's custom store that keeps models in a JSON file, as a library the example and its tests use.
        .target(
            name: "JSONStoreKit",
            dependencies: ["SwiftData"],
            path: "Examples/JSONStoreKit",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "JSONStoreExample",
            dependencies: ["JSONStoreKit", "SwiftData"],
            path: "Examples/JSONStoreExample",
            swiftSettings: strictSettings
        ),
        // Live results across two processes: the program starts itself again as the writer of a shared store.
        .executableTarget(
            name: "LiveTasksExample",
            dependencies: ["SwiftData"],
            path: "Examples/LiveTasksExample",
            swiftSettings: strictSettings
        ),
        // Seed 002's two devices editing one note, syncing through a PostgreSQL server.
        .executableTarget(
            name: "NotesSyncExample",
            dependencies: ["SwiftData", "SwiftDataSync"],
            path: "Examples/NotesSyncExample",
            swiftSettings: strictSettings
        ),

        // MARK: - Macros
        .target(
            name: "SwiftDataMacros",
            dependencies: swiftSyntaxProducts,
            swiftSettings: macroSwiftSettings,
            linkerSettings: hostSyntaxLinkerSettings
        ),
        .macro(
            name: "SwiftDataMacrosPlugin",
            dependencies: macroDependencies,
            swiftSettings: macroSwiftSettings,
            linkerSettings: hostSyntaxLinkerSettings
        ),

        // MARK: - Tests
        .testTarget(
            name: "SwiftDataMacrosTests",
            dependencies: macroTestDependencies,
            swiftSettings: macroSwiftSettings,
            linkerSettings: hostSyntaxLinkerSettings
        ),
        .testTarget(
            name: "SwiftDataTests",
            dependencies: ["SwiftData", "StoreWriterHelper"],
            swiftSettings: strictSettings
        ),
        // The seeds' migration code declares `static var versionIdentifier`, which Swift 6 rejects as shared
        // mutable state; like the apps it comes from, it builds in the Swift 5 language mode.
        .testTarget(
            name: "SeedMigrationTests",
            dependencies: ["SwiftData", "SwiftDataPostgreSQL", "PostgreSQLTestServer"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Snippets in the shapes real SwiftData code has (Apple's templates and samples, apps' data layers), in the
        // language settings apps use: a signature that drifts from Apple's fails this target's build.
        .testTarget(
            name: "SourceCompatibilityTests",
            dependencies: ["SwiftData"]
        ),
        .testTarget(
            name: "JSONStoreKitTests",
            dependencies: ["JSONStoreKit", "SwiftData"],
            swiftSettings: strictSettings
        ),
        // Replicas syncing through the PostgreSQL server `SWIFTDATA_POSTGRESQL_URL` names (see the README).
        .testTarget(
            name: "SwiftDataSyncTests",
            dependencies: ["SwiftDataSync", "SwiftData", "SwiftDataPostgreSQL", "PostgreSQLTestServer"],
            swiftSettings: strictSettings
        ),
        // Runs against the PostgreSQL server `SWIFTDATA_POSTGRESQL_URL` names (see the README).
        .testTarget(
            name: "SwiftDataPostgreSQLTests",
            dependencies: ["SwiftDataPostgreSQL", "SwiftData", "PostgreSQLWriterHelper", "PostgreSQLTestServer"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SwiftDataToolTests",
            dependencies: ["SwiftDataTool", "SwiftData"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DifferentialTests",
            dependencies: ["SwiftData"],
            swiftSettings: strictSettings
        ),
        // The PostgreSQL server of the test suites that run on both stores.
        .target(
            name: "PostgreSQLTestServer",
            dependencies: ["SwiftDataPostgreSQL"],
            path: "Tests/Helpers/PostgreSQLTestServer",
            swiftSettings: strictSettings
        ),
        // Another process saving to a PostgreSQL store, for the multi-process tests.
        .executableTarget(
            name: "PostgreSQLWriterHelper",
            dependencies: ["SwiftData", "SwiftDataPostgreSQL"],
            path: "Tests/Helpers/PostgreSQLWriterHelper",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "StoreWriterHelper",
            dependencies: ["SwiftData"],
            path: "Tests/Helpers/StoreWriterHelper",
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
