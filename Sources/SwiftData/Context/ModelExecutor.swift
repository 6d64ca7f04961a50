internal import Dispatch

/// An object that runs the work of a model actor, and owns the actor's model context.
///
/// As on Apple platforms, a model executor is an `Executor`: it runs the jobs enqueued on it.
public protocol ModelExecutor: Executor {
    /// The context the actor's work uses.
    var modelContext: ModelContext { get }
}

/// A model executor that runs one job at a time.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// The executor `@ModelActor` gives each actor: a serial queue that owns one model context.
///
/// Every job of the actor runs on the executor's queue, so the context is only ever used from there. After each
/// job, the context's automatic undo group is closed, and a context whose `autosaveEnabled` is true and that has
/// changes is saved.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    // @unchecked: `modelContext` is only used by jobs running on `queue`, one at a time.

    /// The context the actor's work uses.
    public let modelContext: ModelContext
    private let queue: DispatchQueue

    /// Creates an executor that owns a context.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        self.queue = DispatchQueue(label: "SwiftData.DefaultSerialModelExecutor")
    }

    /// Schedules a job to run after the jobs already scheduled.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in
            job.runSynchronously(on: asUnownedSerialExecutor())
            // The end of a job is the end of an event: it closes the undo group the job's changes opened.
            modelContext.processPendingChanges()
            modelContext.autosaveIfNeeded()
        }
    }

    /// The executor as an unowned reference, for the actor's `unownedExecutor`.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Stops the program when called from outside the executor's queue.
    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
