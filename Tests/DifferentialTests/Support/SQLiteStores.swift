@testable import SwiftData

extension ModelContainer {
    /// The container's stores as the SQLite stores they are, for tests that look at the SQL a store ran.
    var sqliteStores: [SQLiteStore] { stores.map { $0 as! SQLiteStore } }
}
