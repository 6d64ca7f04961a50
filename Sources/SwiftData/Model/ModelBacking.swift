/// A model's backing data, with the SwiftData storage behind it found once. `@Model` keeps one in every model; not
/// for use outside the code `@Model` generates.
///
/// Property accesses reached a model's storage through `persistentBackingData`: a copy of an existential (a call
/// to its type's value witness and a retain), a call through the protocol's witness table, and a release, on
/// every read and write. With the storage kept beside the backing data, an access loads it.
public struct _ModelBacking<Model: PersistentModel> {
    /// The backing data.
    public let backingData: any BackingData<Model>
    /// SwiftData's storage behind `backingData`, or nil for backing data of another kind. Unretained, since
    /// `backingData` is the same object and keeps it alive.
    @usableFromInline
    unowned(unsafe) let storage: ModelStorage?

    /// Keeps backing data and looks up the storage behind it.
    @inlinable
    public init(_ backingData: any BackingData<Model>) {
        self.backingData = backingData
        self.storage = ModelStorage.behind(backingData)
    }

    /// The storage behind the backing data, for `PersistentModel._$swiftDataStorage`.
    @inlinable
    public var object: AnyObject? { storage }
}
