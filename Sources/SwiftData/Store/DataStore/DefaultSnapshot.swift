internal import Foundation

/// The snapshot SwiftData's own stores use, and the one most custom stores use: each property's value by the
/// property's name, with relationships as the persistent identifiers of the related models.
///
/// A store keeps snapshots as they are, or encodes them: a snapshot encodes as a keyed container with its
/// identifier under `persistentIdentifier` and each property's value under the property's name (see
/// ``DataStoreSnapshotCodingKey``). Attributes encode with their own `Codable` conformance (an attribute declared
/// with a value transformer and whose type is not `Codable` encodes the transformer's `Data`); a to-one
/// relationship encodes the related model's identifier or `nil`, a to-many relationship an array of identifiers.
///
/// ```swift
/// let snapshots = try JSONDecoder().decode([DefaultSnapshot].self, from: Data(contentsOf: fileURL))
/// ```
///
/// Decoding a snapshot needs the model type of its entity: the type must be part of a `Schema` or
/// `ModelContainer` created earlier in the process.
public struct DefaultSnapshot: DataStoreSnapshot {
    /// The identifier of the model the snapshot describes.
    public let persistentIdentifier: PersistentIdentifier

    /// Returns the same snapshot under another identifier, with identifiers of related models replaced as a map
    /// says.
    ///
    /// ```swift
    /// let permanent = try PersistentIdentifier.identifier(
    ///     for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
    /// let saved = snapshot.copy(persistentIdentifier: permanent, remappedIdentifiers: remapped)
    /// ```
    ///
    /// - Parameters:
    ///   - persistentIdentifier: The identifier of the copy.
    ///   - remappedIdentifiers: New identifiers of related models, by their old identifiers; nil (the default) or
    ///     a missing entry keeps a related model's identifier as it is.
    public func copy(
        persistentIdentifier: PersistentIdentifier,
        remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]? = nil
    ) -> DefaultSnapshot {
        guard let remapped = remappedIdentifiers, !remapped.isEmpty else {
            return DefaultSnapshot(persistentIdentifier: persistentIdentifier, entity: entity, values: values)
        }
        func remap(_ identifier: PersistentIdentifier) -> PersistentIdentifier { remapped[identifier] ?? identifier }
        let values = values.mapValues { value -> Value in
            switch value {
            case .attribute: value
            case .toOne(let target): .toOne(target.map(remap))
            case .toMany(let targets): .toMany(targets.map(remap))
            }
        }
        return DefaultSnapshot(persistentIdentifier: persistentIdentifier, entity: entity, values: values)
    }

    // MARK: - Internal

    /// One property's value in a snapshot.
    enum Value: @unchecked Sendable {
        // @unchecked: a snapshot never changes its values, and attribute values are copies of what the model held;
        // an attribute whose type is a class is shared with the model, as the model's own copy of it is.

        /// An attribute's value, of the property's type (an `Optional` for an optional property).
        case attribute(Any)
        /// The identifier of the model a to-one relationship refers to, or nil.
        case toOne(PersistentIdentifier?)
        /// The identifiers of the models a to-many relationship holds, in order.
        case toMany([PersistentIdentifier])
    }

    /// The entity of the model.
    let entity: Schema.Entity
    /// Each property's value by the property's name. A property is left out when the model never gave it a
    /// value, or when an encoded snapshot did not hold it.
    let values: [String: Value]

    init(persistentIdentifier: PersistentIdentifier, entity: Schema.Entity, values: [String: Value]) {
        self.persistentIdentifier = persistentIdentifier
        self.entity = entity
        self.values = values
    }

    /// The same snapshot with the given models taken out of its relationships (a to-one relationship to one of
    /// them becomes nil), or nil when no relationship names one of them.
    func removingReferences(to removed: Set<PersistentIdentifier>) -> DefaultSnapshot? {
        var values = values
        var isChanged = false
        for (name, value) in values {
            switch value {
            case .toOne(let target?) where removed.contains(target):
                values[name] = .toOne(nil)
                isChanged = true
            case .toMany(let targets) where targets.contains(where: removed.contains):
                values[name] = .toMany(targets.filter { !removed.contains($0) })
                isChanged = true
            default:
                continue
            }
        }
        return isChanged
            ? DefaultSnapshot(persistentIdentifier: persistentIdentifier, entity: entity, values: values) : nil
    }
}

extension DefaultSnapshot: Codable {
    /// Encodes the identifier under `persistentIdentifier` and each value under its property's name, in the order
    /// the model declares its properties.
    ///
    /// - Throws: The error an attribute's `encode(to:)` throws, or `EncodingError.invalidValue` for an attribute
    ///   that is neither `Encodable` nor turned into `Data` by a value transformer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        try container.encode(persistentIdentifier, forKey: .persistentIdentifier)
        for property in entity.persistedProperties {
            guard let value = values[property.name] else { continue }
            let key = DataStoreSnapshotCodingKey.modeledProperty(property.name)
            switch value {
            case .toOne(let target): try container.encode(target, forKey: key)
            case .toMany(let targets): try container.encode(targets, forKey: key)
            case .attribute(let attribute):
                if let encodable = attribute as? any Encodable {
                    try container.encode(encodable, forKey: key)
                } else {
                    try container.encode(try Self.transformedData(attribute, of: property), forKey: key)
                }
            }
        }
    }

    /// Decodes a snapshot that `encode(to:)` wrote: each attribute as its property's type.
    ///
    /// - Throws: `DecodingError` when the container is not a snapshot's, when no model type of the identifier's
    ///   entity is known in this process, or when a value does not decode as its property's type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        let identifier = try container.decode(PersistentIdentifier.self, forKey: .persistentIdentifier)
        let names = container.allKeys.compactMap { key -> String? in
            if case .modeledProperty(let name) = key { return name }
            return nil
        }
        guard let entity = Self.knownEntity(named: identifier.entityName, holding: names) else {
            throw DecodingError.dataCorruptedError(
                forKey: .persistentIdentifier, in: container,
                debugDescription: "no model type of the entity \(identifier.entityName) is known: create a Schema or "
                    + "ModelContainer with it before decoding its snapshots")
        }
        var values: [String: Value] = [:]
        for property in entity.persistedProperties {
            let key = DataStoreSnapshotCodingKey.modeledProperty(property.name)
            guard container.contains(key) else { continue }
            if let info = property.relationshipInfo {
                values[property.name] =
                    info.isToMany
                    ? .toMany(try container.decode([PersistentIdentifier].self, forKey: key))
                    : .toOne(try container.decodeIfPresent(PersistentIdentifier.self, forKey: key))
            } else if let decodable = property.valueType as? any Decodable.Type {
                values[property.name] = .attribute(try container.decode(decodable, forKey: key))
            } else {
                let data = try container.decodeIfPresent(Data.self, forKey: key)
                guard let value = Self.reverseTransformed(data, of: property) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "\(entity.name).\(property.name)'s value transformer could not read the data")
                }
                values[property.name] = .attribute(value)
            }
        }
        self.init(persistentIdentifier: identifier, entity: entity, values: values)
    }

    // MARK: - Internal

    /// The entity of a model type this process knows, by name. Entities of different modules can share a name;
    /// the one whose properties include every encoded property is taken then.
    static func knownEntity(named name: String, holding propertyNames: [String]) -> Schema.Entity? {
        let candidates = EntityRegistry.shared.knownEntities.filter { $0.name == name }
        guard candidates.count > 1 else { return candidates.first }
        return candidates.first { entity in propertyNames.allSatisfy { entity.indexByName[$0] != nil } }
            ?? candidates.first
    }

    /// The value transformer an attribute declares, if any.
    static func transformer(of property: Schema.Entity.Property) -> ValueTransformer? {
        (property.schemaProperty as? Schema.Attribute)?.options.lazy.compactMap { $0.makeTransformer() }.first
    }

    /// The `Data` a property's value transformer makes of an attribute that is not `Encodable`; nil for `nil`.
    package static func transformedData(_ attribute: Any, of property: Schema.Entity.Property) throws -> Data? {
        guard let value = unwrappedValue(attribute) else { return nil }
        guard let transformer = transformer(of: property), let data = transformer.transformedValue(value) as? Data
        else {
            throw EncodingError.invalidValue(
                attribute,
                EncodingError.Context(
                    codingPath: [DataStoreSnapshotCodingKey.modeledProperty(property.name)],
                    debugDescription: "\(property.name) is neither Encodable nor turned into Data by a value "
                        + "transformer"))
        }
        return data
    }

    /// The value of a transformed attribute from its encoded `Data`, of the property's type; nil when the
    /// transformer cannot read it.
    package static func reverseTransformed(_ data: Data?, of property: Schema.Entity.Property) -> Any? {
        let optional = property.valueType as? any OptionalValue.Type
        guard let data else { return optional?.noneValue }
        guard let value = transformer(of: property)?.reverseTransformedValue(data) else { return nil }
        return optional.map { $0.wrapping(value) } ?? value
    }
}
