import CSQLiteBench
import Foundation
@_spi(Instrumentation) import SwiftData

extension Workloads {
    // MARK: - W11 live results

    /// A live list of `count / 10` items (those whose flag is set, sorted by number) kept current while another
    /// context saves one change at a time, 100 times: the time from each save to the list being current again,
    /// all 100 included. W11a changes the number the list is sorted by, so each item moves; W11b changes a text
    /// the list does not read.
    ///
    /// The raw baseline is what a program without live results does: the same UPDATE in its own transaction, then
    /// the list's query again, read into structs. Each figure notes how many of our updates fetched again.
    func liveResults() throws -> [Measurement] {
        let count = sizes.rows / 10
        let saves = 100
        let (db, container, _) = try populated(count)
        let listQuery = "SELECT * FROM items WHERE flag = 1 ORDER BY number, id"
        var measurements: [Measurement] = []
        for (name, changesSortKey) in [("W11a", true), ("W11b", false)] {
            let raw = try harness.median {
                let update = db.prepare(
                    changesSortKey
                        ? "UPDATE items SET number = ?1 WHERE id = ?2" : "UPDATE items SET longText = ?1 WHERE id = ?2")
                defer { sqlite3_finalize(update) }
                for save in 0..<saves {
                    db.exec("BEGIN")
                    if changesSortKey {
                        sqlite3_bind_int64(update, 1, Int64(count + save))
                    } else {
                        db.bindText(update, 1, "edited \(save)")
                    }
                    sqlite3_bind_int64(update, 2, Int64(2 * save + 1))
                    sqlite3_step(update)
                    sqlite3_reset(update)
                    db.exec("COMMIT")
                    blackHole(readRaw(db, listQuery))
                }
            }
            // Outside any actor, an observer applies what changed when its results are read: the read after each
            // save is when the list is current again.
            let observer = try ResultsObserver(
                filterBy: #Predicate<BenchItem> { $0.flag }, sortBy: [SortDescriptor(\.number)],
                modelContainer: container)
            let writer = ModelContext(container)
            let listed = try writer.fetch(FetchDescriptor<BenchItem>(predicate: #Predicate { $0.flag }))
            var round = 0
            let ours = try harness.median {
                round += 1
                for save in 0..<saves {
                    let item = listed[save]
                    if changesSortKey {
                        item.number = count * (round + 1) + save
                    } else {
                        item.longText = "edited \(round) \(save)"
                    }
                    try writer.save()
                    blackHole(observer.results.count)
                }
            }
            let statistics = observer.statistics
            var measurement = measure(
                name, "\(saves) saves, each then a \(count / 2)-item live list current", raw: raw, ours: ours)
            let total = (harness.runs + 1) * saves
            measurement.note = String(
                format: "%.3f ms per save; fetched again %d times in %d saves (%d updated in place)",
                ours / Double(saves), statistics.refetches, total, statistics.updatesInPlace)
            measurements.append(measurement)
        }
        return measurements
    }
}
