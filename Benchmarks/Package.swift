// swift-tools-version: 6.0
import PackageDescription

// The benchmarks: every workload timed against the raw SQLite C API doing the same work in the same run.
// `swift run -c release --package-path Benchmarks swiftdata-bench [--quick] [--json FILE] [--check]`
let package = Package(
    name: "SwiftDataBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "OpenSwiftData", path: "..")],
    targets: [
        .systemLibrary(name: "CSQLiteBench", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "swiftdata-bench",
            dependencies: [.product(name: "SwiftData", package: "OpenSwiftData"), "CSQLiteBench"],
            path: "Sources/SwiftDataBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
