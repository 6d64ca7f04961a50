import Observation

/// The observation registrar of a model, made when the model is first read.
///
/// `@Model` gives every model one. Observation's `ObservationRegistrar` allocates its state when it is created,
/// and every mutation through it takes a lock to look for observers: for a model that is created, saved and
/// released without being read (an import), that was more than a tenth of the model's cost. An observer can only
/// register by reading a property, which makes the registrar here; before the first read nobody can be observing
/// the model, and mutations skip notifying.
///
/// Like the rest of a model, it is used from one isolation domain at a time: the first read stores the registrar.
public struct _LazyObservationRegistrar: Sendable {
    // Not an optional: `ObservationRegistrar` is a resilient type, and testing and unwrapping an optional of it
    // goes through the run time's value witnesses on every read. Until the model is first read, the field holds
    // one registrar that all such models share and nobody observes through.
    @usableFromInline
    var registrar: ObservationRegistrar
    @usableFromInline
    var isMade = false

    @usableFromInline
    static let unmade = ObservationRegistrar()

    /// A registrar that has not been needed yet.
    @inlinable
    public init() {
        registrar = Self.unmade
    }

    /// Records that a property of `subject` was read, for the observation tracking in progress.
    @inlinable
    public mutating func access<Subject: Observable, Member>(_ subject: Subject, keyPath: KeyPath<Subject, Member>) {
        if !isMade {
            registrar = ObservationRegistrar()
            isMade = true
        }
        registrar.access(subject, keyPath: keyPath)
    }

    /// Runs `mutation`, notifying the observers of the property of `subject` if anyone has read the model.
    @inlinable
    public func withMutation<Subject: Observable, Member, Result>(
        of subject: Subject,
        keyPath: KeyPath<Subject, Member>,
        _ mutation: () throws -> Result
    ) rethrows -> Result {
        guard isMade else { return try mutation() }
        return try registrar.withMutation(of: subject, keyPath: keyPath, mutation)
    }
}
