import Foundation
import SwiftData

// swiftdata-bench [--quick] [--json FILE] [--check] [--only Wn] [--floor]
//
// Runs every workload next to the raw SQLite C API doing the same work, prints a table of medians and ratios,
// optionally writes them as JSON, and with --check compares the ratios with the committed baseline
// (Thresholds/6.3/ratios.json), failing when a workload is more than 15% worse. --floor instead prints what W2's
// read costs into objects of a few shapes without SwiftData (see Floor.swift).

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let jsonPath = arguments.firstIndex(of: "--json").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let check = arguments.contains("--check")
/// `--only W5` runs one group of workloads, for profiling.
let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
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
if wanted("W1") { results.append(try workloads.insert()) }
if wanted("W2", "W5", "W6") { results += try workloads.fetchUpdateDelete() }
if wanted("W3", "W4", "W8", "W10") { results += try workloads.bigStore() }
if wanted("W7") { results += try workloads.relationships() }
if wanted("W9") { results.append(try workloads.upserts()) }

func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
print(pad("workload", 6), pad("description", 58), pad("raw ms", 10), pad("ours ms", 10), "ratio")
for result in results {
    let extra = result.peak_mb.map { String(format: "  peak %.1f MB", $0) } ?? ""
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
    let baselineURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Thresholds/6.3/ratios.json")
    let baseline = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: baselineURL))
    var regressions: [String] = []
    for result in results {
        guard let allowed = baseline[result.workload] else { continue }
        if result.ratio > allowed * 1.15 {
            regressions.append(
                "\(result.workload): ratio \(String(format: "%.2f", result.ratio)) vs baseline \(allowed)")
        }
    }
    if regressions.isEmpty {
        print("check: no workload is more than 15% worse than the baseline")
    } else {
        print("check: regressions:\n" + regressions.joined(separator: "\n"))
        removeScratchFiles()
        exit(1)
    }
}
