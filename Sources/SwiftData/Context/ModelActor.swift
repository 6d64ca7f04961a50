/// An actor that works with models through its own model context, isolated to its model executor.
///
/// Apply `@ModelActor` to an actor to conform it:
///
/// ```swift
/// @ModelActor
/// actor Importer {
///     func importTrips(_ names: [String]) throws {
///         for name in names { modelContext.insert(Trip(name: name)) }
///         try modelContext.save()
///     }
/// }
/// let importer = Importer(modelContainer: container)
/// ```
public protocol ModelActor: Actor {
    /// The container the actor's context belongs to.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor that runs the actor's work and owns its context. Don't use it to reach the context; use
    /// `modelContext`.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's executor: its model executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialModelExecutor else {
            preconditionFailure("\(Self.self)'s modelExecutor must be a SerialModelExecutor")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The actor's model context.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with an identifier, from the actor's context or its store; nil when no such model exists. When the
    /// store cannot be read, the model of the row, which reads its values on first access (see
    /// `ModelContext.model(for:)`).
    public subscript<T>(id: PersistentIdentifier, as type: T.Type) -> T? where T: PersistentModel {
        if let registered: T = modelContext.registeredModel(for: id) { return registered }
        return modelContext.existingModel(for: id) as? T
    }
}
