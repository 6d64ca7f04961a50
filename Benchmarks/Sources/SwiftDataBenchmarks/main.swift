import Foundation
import SwiftData

// swiftdata-bench [--quick] [--json FILE] [--check [--baseline FILE]] [--only Wn] [--floor] [--compare FILE]
//                 [--postgresql URI]
//
// Runs every workload next to the raw SQLite C API doing the same work, prints a table of medians and ratios,
// optionally writes them as JSON, and with --check compares the ratios with a baseline (by default the committed
// Thresholds/6.3/ratios.json), failing when a workload is more than 15% worse. --compare FILE takes the results
// from a JSON file that --json wrote instead of running the workloads, so a check can be repeated against another
// baseline. --floor instead prints what W2's read costs into objects of a few shapes without SwiftData (see
// Floor.swift). With a PostgreSQL server (--postgresql URI, or the tests' SWIFTDATA_POSTGRESQL_URL), the PG-W
// workloads also run the PostgreSQL store next to raw libpq, in databases they make and drop on that server.

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
/// The value that follows an option, if the option is given.
func value(of option: String) -> String? {
    arguments.firstIndex(of: option).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let jsonPath = value(of: "--json")
let check = arguments.contains("--check")
let comparedPath = value(of: "--compare")
/// `--only W5` runs one group of workloads, for profiling.
let only = value(of: "--only")
func wanted(_ names: String...) -> Bool { only.map { names.contains($0) } ?? true }

let workloads = Workloads(sizes: quick ? .quick : .full, harness: Harness(runs: quick ? 3 : 5))
var results: [Measurement] = []
// The stores are deleted however the run ends short of a crash.
defer { removeScratchFiles() }
if arguments.contains("--floor") {
    try workloads.floor()
    removeScratchFiles()
    exit(0)
}
if let comparedPath {
    results = try JSONDecoder().decode([Measurement].self, from: Data(contentsOf: URL(fileURLWithPath: comparedPath)))
} else {
    if wanted("W1") { results.append(try workloads.insert()) }
    if wanted("W2", "W5", "W6") { results += try workloads.fetchUpdateDelete() }
    if wanted("W3", "W4", "W8", "W10", "W12") { results += try workloads.bigStore() }
    if wanted("W7") { results += try workloads.relationships() }
    if wanted("W9") { results.append(try workloads.upserts()) }
    if wanted("W11") { results += try workloads.liveResults() }
    if wanted("W13", "W14", "W16") { results += try workloads.realAppPaths() }
    if wanted("W15") { results.append(try workloads.richEntity()) }
    if wanted("W17") { results.append(try workloads.oneParentManyChildren()) }
    let postgreSQL = value(of: "--postgresql") ?? ProcessInfo.processInfo.environment["SWIFTDATA_POSTGRESQL_URL"]
    if let server = postgreSQL.flatMap(URL.init(string:)), wanted("PG") {
        results += try PostgreSQLWorkloads(server: server, sizes: quick ? .quick : .full, harness: workloads.harness)
            .all()
    }
}

func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
print(pad("workload", 6), pad("description", 58), pad("raw ms", 10), pad("ours ms", 10), "ratio")
for result in results {
    let extra =
        (result.peak_mb.map { String(format: "  peak %.1f MB", $0) } ?? "") + (result.note.map { "  \($0)" } ?? "")
    print(
        pad(result.workload, 6), pad(result.description, 58), pad(String(format: "%.2f", result.raw_ms), 10),
        pad(String(format: "%.2f", result.ours_ms), 10), String(format: "%.2f", result.ratio) + extra
    )
}

if let jsonPath {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(results).write(to: URL(fileURLWithPath: jsonPath))
}

if check {
    let baselineURL =
        value(of: "--baseline").map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Thresholds/6.3/ratios.json")
    let baseline = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: baselineURL))
    let regressions = Regression.find(in: results, against: baseline)
    if regressions.isEmpty {
        print("check: no workload is more than 15% worse than the baseline")
    } else {
        print("check: regressions:\n" + regressions.map(\.description).joined(separator: "\n"))
        removeScratchFiles()
        exit(1)
    }
}
