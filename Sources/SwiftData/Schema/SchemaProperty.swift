/// A property of an entity in a schema: an attribute or a relationship.
///
/// Properties encode and decode with `Codable`, as part of their entity and schema (see ``Schema/save(to:)``).
public protocol SchemaProperty: AnyObject, Codable, Hashable, Sendable {
    /// The property's name.
    var name: String { get }
    /// The property's name in an earlier schema version, or its current name when it was never renamed.
    var originalName: String { get }
    /// The Swift type of the property's value.
    var valueType: any Any.Type { get }
    /// True for attributes.
    var isAttribute: Bool { get }
    /// True for relationships.
    var isRelationship: Bool { get }
    /// True for properties that are not persisted.
    var isTransient: Bool { get }
    /// True when the property's value can be `nil`.
    var isOptional: Bool { get }
    /// True when the property's value is unique across all models of the entity.
    var isUnique: Bool { get }
}
