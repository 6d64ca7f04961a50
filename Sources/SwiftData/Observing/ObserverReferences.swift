/// What threads other than an observer's actor tell it of: changes that arrived.
protocol ChangeArrivalReceiver: AnyObject {
    /// Called from any thread: touches only the receiver's `Sendable` parts.
    func changesArrived(_ arrival: ObservedChanges.Arrival)
}

/// A weak reference to an observer for the threads that tell it of changes.
final class ArrivalTarget: @unchecked Sendable {
    // @unchecked: the weak reference is only read, and the receiver's method touches only what is Sendable.
    weak var receiver: (any ChangeArrivalReceiver)?

    init(_ receiver: any ChangeArrivalReceiver) {
        self.receiver = receiver
    }
}

/// A weak reference to an observer, with which work is sent to the observer's actor.
final class ObserverReference<Observer: AnyObject>: @unchecked Sendable {
    weak var observer: Observer?

    init(_ observer: Observer) {
        self.observer = observer
    }

    /// Runs `body` with the observer on its actor, after the work running there now, unless the observer is gone.
    func run(on isolation: any Actor, _ body: @escaping (Observer) -> Void) {
        let task = UncheckedTask(body: body)
        Task { await self.perform(task, isolation: isolation) }
    }

    private func perform(_ task: UncheckedTask, isolation: isolated any Actor) {
        if let observer { task.body(observer) }
    }

    /// A closure over the observer, which runs on the observer's actor only.
    private struct UncheckedTask: @unchecked Sendable {
        let body: (Observer) -> Void
    }
}
