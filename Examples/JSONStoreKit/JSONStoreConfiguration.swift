public import Foundation
public import SwiftData

/// Where a ``JSONStore`` keeps its models: one JSON file.
///
/// Pass it to a `ModelContainer` in place of a `ModelConfiguration`:
///
/// ```swift
/// let schema = Schema([Trip.self])
/// let configuration = JSONStoreConfiguration(name: "Trips", schema: schema, fileURL: url)
/// let container = try ModelContainer(for: schema, configurations: [configuration])
/// ```
public final class JSONStoreConfiguration: DataStoreConfiguration {
    /// The store this configuration opens.
    public typealias Store = JSONStore

    /// The configuration's name; it is also the store's identifier.
    public var name: String
    /// The schema of the models the store holds, or nil for every model of the container.
    public var schema: Schema?
    /// The JSON file that holds the models.
    public var fileURL: URL

    /// Creates a configuration for a JSON file.
    public init(name: String, schema: Schema? = nil, fileURL: URL) {
        self.name = name
        self.schema = schema
        self.fileURL = fileURL
    }

    /// Checks that the configuration names a file.
    ///
    /// - Throws: ``JSONStoreError/notAFileURL(_:)`` when `fileURL` is not a file URL.
    public func validate() throws {
        guard fileURL.isFileURL else { throw JSONStoreError.notAFileURL(fileURL) }
    }

    /// Configurations are equal when they have the same name and file.
    public static func == (lhs: JSONStoreConfiguration, rhs: JSONStoreConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.fileURL == rhs.fileURL
    }

    /// Hashes the name and file.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(fileURL)
    }
}
