#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Hands the backing data a fetch made for a row to the model the fetch is creating around it.
///
/// `@Model` gives `_$backingData` the initial value `createBackingData()`, as Apple's macro does, so every
/// initializer runs it, `init(backingData:)` included. For a fetched model that backing data would be replaced at
/// once, unused; allocating it and its metadata cost a third of materialising a row. Instead the fetch offers its
/// own backing data in a per-thread slot while it calls `init(backingData:)`, and `createBackingData()` takes it.
/// The slot is per thread because contexts on different threads create models at the same time.
@usableFromInline
enum BackingDataHandoff {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let code = pthread_key_create(&key, nil)
        precondition(code == 0, "SwiftData could not create a thread-specific key (error \(code))")
        return key
    }()

    /// Runs `body` (which creates a model of `storage`'s type) with `storage` offered to that model.
    static func offering<Result>(_ storage: ModelStorage, _ body: () -> Result) -> Result {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(storage).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return body()
    }

    /// The offered backing data when it is for models of `modelType`, removed from the slot so that no other
    /// model takes it.
    @usableFromInline
    static func take(for modelType: any PersistentModel.Type) -> ModelStorage? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        let storage = Unmanaged<ModelStorage>.fromOpaque(pointer).takeUnretainedValue()
        // A model the initializer creates on the side (a transient property's default value, say) is of another
        // type and gets backing data of its own.
        guard storage.backingModelType == ObjectIdentifier(modelType) else { return nil }
        pthread_setspecific(key, nil)
        return storage
    }
}
