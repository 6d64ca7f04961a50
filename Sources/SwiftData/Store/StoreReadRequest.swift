/// What a read of an entity's rows selects, in what order, and which of their properties it loads.
package struct StoreReadRequest {
    /// Which rows, before the filter applies.
    package enum Selection {
        /// Every row of the entity (and, for a class of a hierarchy, of its subclasses).
        case all
        /// The rows with these identifiers.
        case identifiers([PersistentIdentifier])
        /// The rows whose to-one relationship `inverse` refers to one of `owners`.
        case related(through: Schema.Entity.Property, owners: [PersistentIdentifier])
    }

    /// The entity whose rows are read.
    package let entity: Schema.Entity
    package var selection = Selection.all
    /// The predicate, in the store's form; nil selects every row of the selection.
    package var filter: (any StoreFilter)?
    /// The order, in the store's form; nil leaves the order to `ordersByIdentifier`.
    package var sortOrder: (any StoreSortOrder)?
    /// Orders by the rows' keys in the store when there is no sort order, so that reads in pages and repeated reads
    /// agree. (Within an inheritance hierarchy, this key order can differ from the order of the identifiers, which
    /// compare entity names first.)
    package var ordersByIdentifier = false
    /// Selects only rows whose key in the store comes after this identifier's (with `ordersByIdentifier`: the next
    /// page).
    package var after: PersistentIdentifier?
    /// Rows left out: those the context deleted without loading them (see `BatchDeletions`).
    package var excluded: ExcludedRows?
    package var limit: Int?
    package var offset: Int?
    /// The indexes of the properties to load, or nil for every one; to-one relationships stored in the row are
    /// always loaded.
    package var properties: Set<Int>?
    /// The reading context's editing state, which a custom store's fetch request carries.
    package var editingState: EditingState?
    /// The cursor whose next page this read hands over, for a store that `ModelStore.readsThroughCursors`: the
    /// same request is read once per page, and the store reads its selection, filter, order, offset and limit on
    /// the first page only. Nil reads every row the request selects at once.
    package var cursor: StoreCursor?

    package init(entity: Schema.Entity, selection: Selection = .all) {
        self.entity = entity
        self.selection = selection
    }
}

/// The identifiers of rows a read leaves out, with a store's own form of them kept for the reads that follow.
///
/// A context keeps one per entity until its deletions of the entity change, and every fetch of the entity in between
/// passes the same one, so a store builds its form of the list once rather than once per change.
package final class ExcludedRows {
    package let identifiers: Set<PersistentIdentifier>
    /// The form a store made of `identifiers`, for its later reads; only that store reads it.
    package var storeForm: Any?

    package init(_ identifiers: Set<PersistentIdentifier>) {
        self.identifiers = identifiers
    }
}
