/// A description of the models to fetch: which ones, in what order, and how many.
///
/// ```swift
/// var descriptor = FetchDescriptor<Trip>(
///     predicate: #Predicate { $0.destination == "Paris" },
///     sortBy: [SortDescriptor(\.startDate, order: .reverse)]
/// )
/// descriptor.fetchLimit = 20
/// let trips = try context.fetch(descriptor)
/// ```
public struct FetchDescriptor<T: PersistentModel>: @unchecked Sendable {
    // @unchecked: predicates, sort descriptors and key paths are immutable values; Foundation does not mark
    // `Predicate` over non-Sendable models as Sendable.

    /// The condition a model must meet to be fetched; nil fetches every model of the type.
    public var predicate: Predicate<T>?
    /// The order of the results.
    public var sortBy: [SortDescriptor<T>]
    /// The most models to fetch; nil for no limit.
    public var fetchLimit: Int?
    /// The number of matching models to skip; nil or 0 skips none.
    public var fetchOffset: Int?
    /// True (the default) to include the context's unsaved inserts, changes and deletions.
    public var includePendingChanges: Bool = true
    /// The properties to load now; empty loads every property.
    ///
    /// The attributes left out are read from the store, all together, the first time one of them is accessed:
    /// through the model's context, or through its container once the context is released. When the row is
    /// gone by then (deleted by another context or process), such an attribute reads its placeholder, and is read
    /// again on next access: its declared default, else `nil` for an optional, else the empty value of its type
    /// (0, `false`, `""`, empty `Data`, the reference date, a zero `Decimal`, the all-zero `UUID`, `about:blank`,
    /// an empty array or dictionary, the first case of a `CaseIterable` enumeration). An attribute whose type has
    /// no empty value (an enumeration that is not `CaseIterable` and has no case for an empty raw value, a
    /// transformed value, a `Codable` value that does not decode from empty fields) is always fetched, so its
    /// stored value is known; among them is every attribute whose type SwiftData cannot make a value of (a class
    /// whose coding or transformer refuses empty input). Apple's SwiftData stops the program instead when the row
    /// is gone.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships whose models to load together with the results.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []
    /// True (the default) to evaluate in memory the parts of the predicate or sort that SQL cannot express, so
    /// the result is always what Swift would compute. Set it to false to get
    /// `SwiftDataError.unsupportedPredicate` or `SwiftDataError.unsupportedSortDescriptor` instead, with a message
    /// naming the part; also when SQL stops on a row that meets `nil!` or a division by zero, which only Swift can
    /// decide. An addition to Apple's API.
    public var allowsInMemoryEvaluation: Bool = true

    /// Creates a fetch descriptor.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
