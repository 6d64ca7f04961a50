/// A description of one store: its name, the models it holds, and the type of store that opens it.
///
/// Each custom ``DataStore`` comes with a configuration type that names it as its `Store`. The configuration holds
/// whatever the store needs to open — a file's location, a server's address — and is what you pass to a
/// `ModelContainer`:
///
/// ```swift
/// final class JSONStoreConfiguration: DataStoreConfiguration {
///     typealias Store = JSONStore
///
///     var name: String
///     var schema: Schema?
///     var fileURL: URL
///
///     init(name: String, schema: Schema? = nil, fileURL: URL) {
///         self.name = name
///         self.schema = schema
///         self.fileURL = fileURL
///     }
///
///     static func == (lhs: JSONStoreConfiguration, rhs: JSONStoreConfiguration) -> Bool { lhs.name == rhs.name }
///     func hash(into hasher: inout Hasher) { hasher.combine(name) }
/// }
/// ```
///
/// ``ModelConfiguration`` is the configuration of SwiftData's own store, ``DefaultStore``.
public protocol DataStoreConfiguration: Hashable {
    /// The store type this configuration opens.
    associatedtype Store: DataStore where Self == Store.Configuration

    /// The configuration's name, unique among the configurations of one container.
    var name: String { get }

    /// The schema of the models the store holds, or nil for every model of the container.
    var schema: Schema? { get set }

    /// Checks that the configuration can describe a store, before the store is opened.
    ///
    /// The default implementation accepts every configuration.
    ///
    /// - Throws: An error that says what is wrong with the configuration.
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts the configuration.
    public func validate() throws {}
}
