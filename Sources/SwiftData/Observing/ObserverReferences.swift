/// An observer that other threads tell of changes (see `ArrivalTarget`).
protocol ChangeArrivalReceiver: AnyObject {
    /// Applies what arrived, on the observer's actor.
    func applyArrivedChanges()
    /// For an observer created outside any actor: tells its observers of the changes, on the thread they arrived
    /// on. Touches only the observer's `Sendable` parts.
    func changesArrivedWithoutActor(_ arrival: ObservedChanges.Arrival)
}

/// What the threads that tell an observer of changes hold of it: a weak reference, and its actor.
///
/// Only the observer's actor makes the reference strong, so the observer is released there even when the last
/// other reference goes while a save on another thread is telling it of a change; released elsewhere, its models
/// and context would be torn down on a thread that does not own them.
final class ArrivalTarget: @unchecked Sendable {
    // @unchecked: the weak reference is only read; off the actor, only an observer without one is made strong.
    private weak var receiver: (any ChangeArrivalReceiver)?
    private let isolation: (any Actor)?

    init(_ receiver: any ChangeArrivalReceiver, isolation: (any Actor)?) {
        self.receiver = receiver
        self.isolation = isolation
    }

    /// Tells the observer of changes: schedules an update on its actor when they call for one, or, for an observer
    /// without an actor, tells its observers at once.
    func changesArrived(_ arrival: ObservedChanges.Arrival) {
        guard let isolation else {
            receiver?.changesArrivedWithoutActor(arrival)
            return
        }
        guard arrival.startsUpdate else { return }
        Task { await self.apply(isolation: isolation) }
    }

    private func apply(isolation: isolated any Actor) {
        receiver?.applyArrivedChanges()
    }
}
