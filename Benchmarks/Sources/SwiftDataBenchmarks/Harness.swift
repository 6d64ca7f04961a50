import Foundation

/// Times a block: one warm-up, then `runs` measured runs; setup runs outside the measurement.
struct Harness {
    let runs: Int

    /// The median time in milliseconds of `body`, with `setup` run before each run and not measured.
    func median(setup: () throws -> Void = {}, _ body: () throws -> Void) rethrows -> Double {
        try setup()
        try body()
        var samples: [Double] = []
        for _ in 0..<runs {
            try setup()
            let clock = ContinuousClock()
            let start = clock.now
            try body()
            let elapsed = clock.now - start
            samples.append(Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The process's peak resident memory, in megabytes (VmHWM).
func peakResidentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes =
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Double($0) } ?? 0
        return kilobytes / 1024
    }
    return 0
}

/// The process's current resident memory, in megabytes (VmRSS).
func residentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kilobytes =
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Double($0) } ?? 0
        return kilobytes / 1024
    }
    return 0
}

/// A workload whose ratio is more than 15% worse than its baseline ratio.
struct Regression: CustomStringConvertible {
    /// How much worse than its baseline a ratio may be before it counts as a regression.
    static let tolerance = 1.15

    let workload: String
    let ratio: Double
    let baseline: Double

    var description: String {
        "\(workload): ratio \(String(format: "%.2f", ratio)) vs baseline \(baseline)"
    }

    /// The results whose ratios exceed their baselines by more than the tolerance; workloads the baseline does
    /// not name are not compared.
    static func find(in results: [Measurement], against baseline: [String: Double]) -> [Regression] {
        results.compactMap { result in
            guard let allowed = baseline[result.workload], result.ratio > allowed * tolerance else { return nil }
            return Regression(workload: result.workload, ratio: result.ratio, baseline: allowed)
        }
    }
}
