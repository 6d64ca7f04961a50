internal import Foundation
internal import SwiftData

/// Attribute values as the JSON text a record's fields hold.
enum SyncValueCoding {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// The JSON of an attribute's value: `null` for nil, the value's own encoding when it is `Encodable`, else the
    /// `Data` its value transformer makes.
    static func encode(_ value: Any, of property: Schema.Entity.Property) throws -> String {
        if isNil(value) { return "null" }
        if let encodable = value as? any Encodable {
            return String(decoding: try encoder.encode(encodable), as: UTF8.self)
        }
        let data = try DefaultSnapshot.transformedData(value, of: property)
        return String(decoding: try encoder.encode(data), as: UTF8.self)
    }

    /// The value of an attribute from the JSON `encode(_:of:)` made.
    static func decode(_ json: Data, of property: Schema.Entity.Property) throws -> Any {
        if let decodable = property.valueType as? any Decodable.Type {
            return try JSONDecoder().decode(decodable, from: json)
        }
        let data = try JSONDecoder().decode(Data?.self, from: json)
        guard let value = DefaultSnapshot.reverseTransformed(data, of: property) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "the value transformer could not read it"))
        }
        return value
    }

    /// The JSON of a text value (a record name, an asset name).
    static func encode(text: String?) -> String {
        guard let text else { return "null" }
        return (try? String(decoding: encoder.encode(text), as: UTF8.self)) ?? "null"
    }

    /// The text a field holds, or nil for `null`.
    static func decodeText(_ json: String) throws -> String? {
        try JSONDecoder().decode(String?.self, from: Data(json.utf8))
    }

    /// True when a value is an `Optional` holding nothing.
    static func isNil(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }
}
