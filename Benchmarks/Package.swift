// swift-tools-version: 6.0
import PackageDescription

// The benchmarks: every workload timed against the raw SQLite C API doing the same work in the same run, and, with a
// PostgreSQL server (`--postgresql URI`, or `SWIFTDATA_POSTGRESQL_URL`), the PostgreSQL store against raw libpq.
// `swift run -c release --package-path Benchmarks swiftdata-bench [--quick] [--json FILE] [--check]`
let package = Package(
    name: "SwiftDataBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "OpenSwiftData", path: "..")],
    targets: [
        .systemLibrary(name: "CSQLiteBench", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQBench", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .executableTarget(
            name: "swiftdata-bench",
            dependencies: [
                .product(name: "SwiftData", package: "OpenSwiftData"),
                .product(name: "SwiftDataPostgreSQL", package: "OpenSwiftData"), "CSQLiteBench", "CLibPQBench",
            ],
            path: "Sources/SwiftDataBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
