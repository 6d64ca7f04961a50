/// The values a deleted model kept in history: those of its attributes declared with `.preserveValueOnDeletion`.
///
/// ```swift
/// if case .delete(let deletion) = change, let trip = deletion as? DefaultHistoryDelete<Trip> {
///     let reference = trip.tombstone[\.bookingReference] as? String
/// }
/// ```
///
/// As a sequence, it holds the kept values in the order the class declares its attributes, those it inherits
/// first.
///
/// The tombstone of a subclass's model keeps its inherited attributes too, under key paths rooted at the
/// subclass: for a `Truck` that inherits `code` from `Vehicle`, read it with `tombstone[\.code]`, that is
/// `\Truck.code`. Key paths are compared with `==`, which tells `\Vehicle.code` apart from `\Truck.code`, so the
/// superclass's key path finds nothing. A class adopting `PersistentModel` without `@Model` keeps only the
/// attributes it declares itself.
public struct HistoryTombstone<Model: PersistentModel>: Sequence, Sendable {
    /// A kept value, of the attribute's type.
    public typealias Element = Any

    /// The kept values with their attributes' key paths, in declaration order.
    private let entries: [(keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)]

    init(_ entries: [(keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)]) {
        self.entries = entries
    }

    /// The kept value of an attribute, or nil when the attribute was not declared with `.preserveValueOnDeletion`
    /// (or its value was nil). The key path is rooted at `Model`, also for an attribute a superclass declares.
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        entries.first { $0.keyPath == keyPath }?.value
    }

    /// Returns an iterator over the kept values.
    public func makeIterator() -> Iterator {
        Iterator(values: entries.map(\.value).makeIterator())
    }

    /// Iterates over a tombstone's kept values.
    public struct Iterator: IteratorProtocol {
        var values: IndexingIterator<[any Sendable]>

        /// The next kept value, or nil after the last.
        public mutating func next() -> Any? { values.next() }
    }
}
