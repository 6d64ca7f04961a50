/// A model's backing data, with the SwiftData storage behind it found once. `@Model` keeps one in every model; not
/// for use outside the code `@Model` generates.
///
/// Property accesses reached a model's storage through `persistentBackingData`: a copy of an existential (a call
/// to its type's value witness and a retain), a call through the protocol's witness table, and a release, on
/// every read and write. With the storage kept beside the backing data, an access loads it.
public struct _ModelBacking<Model: PersistentModel> {
    /// The backing data.
    public let backingData: any BackingData<Model>
    /// SwiftData's storage behind `backingData`, or nil for backing data of another kind: a `ModelStorage`.
    /// Unretained, since `backingData` is the same object and keeps it alive; handed out unretained too, so that a
    /// property access costs no retain and release of it.
    public let storageReference: Unmanaged<AnyObject>?

    /// Keeps backing data and looks up the storage behind it.
    @inlinable
    public init(_ backingData: any BackingData<Model>) {
        self.init(backingData, storageReference: Self.storageReference(of: backingData))
    }

    /// Keeps backing data and the reference to the storage behind it, found already.
    @usableFromInline
    init(_ backingData: any BackingData<Model>, storageReference: Unmanaged<AnyObject>?) {
        self.backingData = backingData
        self.storageReference = storageReference
    }

    /// An unretained reference to SwiftData's storage behind backing data, or nil for backing data of another kind.
    @inlinable
    public static func storageReference(of backingData: any BackingData<Model>) -> Unmanaged<AnyObject>? {
        backingData._swiftDataStorage.map { Unmanaged.passUnretained($0) }
    }

    /// Holds `backingData` from now on, for `init(backingData:)`. A fetched model holds it already: the fetch
    /// offered it to `createBackingData()`, which the initial value of `_$backingData` called, and it is kept as it
    /// is rather than wrapped again.
    @inlinable
    public mutating func adopt(_ backingData: any BackingData<Model>) {
        let reference = Self.storageReference(of: backingData)
        if let reference, reference.toOpaque() == storageReference?.toOpaque() { return }
        self = _ModelBacking(backingData, storageReference: reference)
    }

    /// SwiftData's storage behind the backing data, or nil for backing data of another kind.
    @inlinable
    var storage: ModelStorage? { storageReference.map(ModelStorage.from) }
}
