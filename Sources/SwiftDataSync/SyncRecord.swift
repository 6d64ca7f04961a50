internal import Foundation

/// One model as sync moves it between a replica and the server: its entity, its record name, and each synced
/// field's value with the time it was written; or the time it was deleted.
///
/// A record names its model by a record name every replica shares (each replica's own persistent identifiers differ).
/// Attributes are fields named as their properties, holding the JSON of the value. A to-one relationship is a
/// field holding the related model's record name, or JSON `null`. A to-many relationship that is not the inverse
/// of a to-one is one field per member, named `relationship/recordName`, holding `true` while the model is a
/// member and `false` once it was taken out, so that members added and removed on different replicas all count.
///
/// A record encodes as JSON (`Codable`), as the engine keeps the records it holds until their targets arrive.
public struct SyncRecord: Hashable, Sendable, Codable {
    /// One field's value and when it was written.
    public struct Field: Hashable, Sendable, Codable {
        /// The field's value as JSON text.
        public var value: String
        /// When the value was written.
        public var timestamp: SyncTimestamp

        /// Creates a field.
        public init(value: String, timestamp: SyncTimestamp) {
            self.value = value
            self.timestamp = timestamp
        }

        private enum CodingKeys: String, CodingKey {
            case value = "v"
            case timestamp = "t"
        }
    }

    /// The name every replica knows the model by.
    public var recordName: String
    /// The name of the model's entity.
    public var entityName: String
    /// The fields, by name.
    public var fields: [String: Field]
    /// When the model was deleted; nil while it exists. A deleted record keeps no fields.
    public var deletion: SyncTimestamp?

    /// Creates a record.
    public init(recordName: String, entityName: String, fields: [String: Field], deletion: SyncTimestamp? = nil) {
        self.recordName = recordName
        self.entityName = entityName
        self.fields = fields
        self.deletion = deletion
    }

    // MARK: - Merging Records

    /// The record that results from writing `incoming` over this one, or nil when nothing changes.
    ///
    /// Each field keeps the later of its two values (by timestamp); a deletion wins over every edit, whenever it
    /// was made, and a deleted record stays deleted. Fields only one side holds are kept, so values written by a
    /// replica with a newer schema survive a replica that does not know them.
    public func merging(_ incoming: SyncRecord) -> SyncRecord? {
        if deletion != nil { return nil }
        if let deletion = incoming.deletion {
            return SyncRecord(recordName: recordName, entityName: entityName, fields: [:], deletion: deletion)
        }
        var merged = self
        var isChanged = false
        for (name, field) in incoming.fields {
            if let current = fields[name], current.timestamp >= field.timestamp { continue }
            merged.fields[name] = field
            isChanged = true
        }
        return isChanged ? merged : nil
    }

    /// The latest timestamp the record holds.
    var latestTimestamp: SyncTimestamp? {
        ([deletion].compactMap { $0 } + fields.values.map(\.timestamp)).max()
    }

    /// The fields as the JSON object the server keeps.
    var encodedFields: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding strings and fixed-width text cannot fail.
        return (try? String(decoding: encoder.encode(fields), as: UTF8.self)) ?? "{}"
    }

    /// Fields from the JSON object the server keeps.
    ///
    /// - Throws: `DecodingError` when the text is not a fields object.
    static func decodeFields(_ text: String) throws -> [String: Field] {
        try JSONDecoder().decode([String: Field].self, from: Data(text.utf8))
    }
}
