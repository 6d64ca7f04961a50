public import Foundation
public import SwiftData

/// A description of a PostgreSQL store: the database a libpq connection URI names, and the models it holds.
///
/// ```swift
/// let url = URL(string: "postgresql://app@db.example.com:5432/trips")!
/// let container = try ModelContainer(for: Trip.self, configurations: PostgreSQLConfiguration(url: url))
/// ```
///
/// The URL is a libpq connection URI: `postgresql://user@host:5432/database`, or
/// `postgresql:///database?host=/socket/directory` for a server on a Unix socket. A password comes from the URI or
/// from libpq's own environment (`PGPASSWORD`, `~/.pgpass`), and never appears in an error or a message: they
/// show the address with its password replaced.
///
/// Equal configurations open one store in a container; configurations of one database with different names are
/// two stores, which must hold different models.
public struct PostgreSQLConfiguration: DataStoreConfiguration, BuiltInStoreConfiguration, Sendable {
    /// The store type a PostgreSQL configuration opens.
    public typealias Store = PostgreSQLStore

    /// The configuration's name: the one given, or "default".
    public var name: String
    /// The models the store holds, or nil for every model of the container.
    public var schema: Schema?
    /// The libpq connection URI of the database.
    public var url: URL
    /// False to open the store read-only: every save that changes it throws.
    public var allowsSave: Bool

    /// A configuration of the database a libpq connection URI names.
    ///
    /// - Parameters:
    ///   - name: The configuration's name; "default" when nil.
    ///   - schema: The models the store holds; nil for every model of the container.
    ///   - url: A libpq connection URI, such as `postgresql://user@host:5432/database`.
    ///   - allowsSave: False to refuse every save.
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.allowsSave = allowsSave
    }

    /// Opens the store through the store interface, for a container.
    package func makeStore(
        entities: [Schema.Entity], version: Schema.Version, migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> any ModelStore {
        try PostgreSQLModelStore(
            configuration: self, entities: entities, version: version, migrationPlan: migrationPlan)
    }
}
