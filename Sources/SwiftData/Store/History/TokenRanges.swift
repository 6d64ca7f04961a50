/// A set of history tokens kept as sorted runs of consecutive tokens: a store's own saves take consecutive tokens
/// until another writer commits, so the saves of a long session fit in a few runs.
struct TokenRanges {
    private var runs: [ClosedRange<Int64>] = []
    /// The most runs kept: past it, the oldest go (a reader that far behind takes those saves for others').
    static let runLimit = 65_536

    /// The number of runs, for tests.
    var runCount: Int { runs.count }

    func contains(_ token: Int64) -> Bool {
        guard let position = position(of: token) else { return false }
        return runs[position].contains(token)
    }

    mutating func insert(_ token: Int64) {
        if let last = runs.last {
            if last.contains(token) { return }
            if token == last.upperBound + 1 {
                runs[runs.count - 1] = last.lowerBound...token
                return
            }
            if token > last.upperBound {
                append(token...token)
                return
            }
        } else {
            append(token...token)
            return
        }
        // Out of order (rare): insert, then join the neighbours it touches.
        var index = (position(of: token) ?? -1) + 1
        if index > 0, runs[index - 1].contains(token) { return }
        runs.insert(token...token, at: index)
        if index > 0, runs[index - 1].upperBound + 1 == token {
            runs[index - 1] = runs[index - 1].lowerBound...token
            runs.remove(at: index)
            index -= 1
        }
        if index + 1 < runs.count, runs[index].upperBound + 1 == runs[index + 1].lowerBound {
            runs[index] = runs[index].lowerBound...runs[index + 1].upperBound
            runs.remove(at: index + 1)
        }
    }

    mutating func remove(_ token: Int64) {
        guard let index = position(of: token), runs[index].contains(token) else { return }
        let run = runs[index]
        runs.remove(at: index)
        var pieces: [ClosedRange<Int64>] = []
        if run.lowerBound < token { pieces.append(run.lowerBound...(token - 1)) }
        if token < run.upperBound { pieces.append((token + 1)...run.upperBound) }
        runs.insert(contentsOf: pieces, at: index)
    }

    private mutating func append(_ run: ClosedRange<Int64>) {
        runs.append(run)
        if runs.count > Self.runLimit { runs.removeFirst(runs.count - Self.runLimit) }
    }

    /// The index of the last run starting at or before `token`, or nil when every run starts after it.
    private func position(of token: Int64) -> Int? {
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].lowerBound <= token { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
