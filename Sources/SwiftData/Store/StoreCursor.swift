/// One read's rows, handed over a page at a time from one cursor that its store keeps open between pages, so that
/// every page sees the store as it was when the first page was read.
///
/// A context that enumerates a fetch makes one and sets it as the `StoreReadRequest.cursor` of the same request,
/// read again for each page; it does so only with a store that `ModelStore.readsThroughCursors`. The store opens its
/// cursor on the first page, keeps what it needs in `storeState`, and ends it once a page comes back short. The
/// context ends it in any case when it reads no more pages (`ModelStore.closeCursor(_:)`): after the last page, or
/// when the enumeration fails or its block throws.
///
/// Between pages the store holds what the cursor needs (a connection and a transaction, on a server), while the
/// context runs the app's code over the page; that code may read and save through the same store, which serves it
/// with other connections.
package final class StoreCursor {
    /// The number of rows each page holds; a shorter page is the last.
    package let pageSize: Int
    /// What the store keeps open for the cursor between pages: nil before the first page and once the cursor is
    /// closed. Only the store that read the first page reads it.
    package var storeState: AnyObject?
    /// True once the store handed over the last page or closed the cursor: a later read hands over no rows.
    package var isClosed = false

    /// A cursor whose pages hold `pageSize` rows (at least one).
    package init(pageSize: Int) {
        self.pageSize = max(1, pageSize)
    }
}
