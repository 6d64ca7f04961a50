import Testing

@testable import SwiftData

/// `TokenRanges`: the tokens of a store's own saves, kept as runs, answer membership exactly.
@Suite struct TokenRangesTests {
    @Test func runsAnswerAsASetWould() {
        var random = SystemRandomNumberGenerator()
        var ranges = TokenRanges()
        var set = Set<Int64>()
        var token: Int64 = 0
        for _ in 0..<5_000 {
            token += Int64.random(in: 1...3, using: &random)
            ranges.insert(token)
            set.insert(token)
            if Int.random(in: 0..<10, using: &random) == 0 {
                let old = Int64.random(in: 1...token, using: &random)
                if Bool.random(using: &random) {
                    ranges.insert(old)
                    set.insert(old)
                } else {
                    ranges.remove(old)
                    set.remove(old)
                }
            }
        }
        for probe in 0...(token + 2) { #expect(ranges.contains(probe) == set.contains(probe), "token \(probe)") }
    }

    @Test func consecutiveTokensTakeOneRun() {
        var ranges = TokenRanges()
        for token in Int64(1)...10_000 { ranges.insert(token) }
        #expect(ranges.runCount == 1)
        ranges.remove(5_000)
        #expect(ranges.runCount == 2)
        #expect(!ranges.contains(5_000) && ranges.contains(4_999) && ranges.contains(5_001))
    }
}
