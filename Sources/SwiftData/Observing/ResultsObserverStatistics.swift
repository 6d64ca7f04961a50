/// How the updates of a `ResultsObserver` went: what the benchmark and the tests measure.
@_spi(Instrumentation) public struct ResultsObserverStatistics: Sendable {
    /// Fetches made after the first one.
    public internal(set) var refetches = 0
    /// Updates made without fetching: the changed models evaluated and moved into place.
    public internal(set) var updatesInPlace = 0
    /// Changes in the context that could not change the results, and were not looked at further.
    public internal(set) var changesIgnored = 0
    /// Saves of other contexts, and commits of other processes, that could not change the results.
    public internal(set) var savesIgnored = 0
}
