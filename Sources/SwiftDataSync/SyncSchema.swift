internal import Foundation
internal import SwiftData

/// Which properties of a container's models sync, and how each travels in a record.
///
/// Attributes sync as themselves. Of the two sides of a relationship with an inverse, one side syncs and the other
/// follows from it, so that replicas applying records in different orders reach the same links: the to-one side
/// of a one-to-many relationship; of a one-to-one or many-to-many one, the side whose entity and property names
/// come first. A relationship without an inverse syncs on its own. To-many relationships that sync are one
/// membership field per member (see ``SyncRecord``).
struct SyncSchema {
    /// How a field of a record maps to a property.
    enum Field {
        case attribute(Schema.Entity.Property)
        case toOne(Schema.Entity.Property)
        case member(Schema.Entity.Property, target: String)
    }

    /// The synced properties of one entity.
    struct Entity {
        let entity: Schema.Entity
        let attributes: [Schema.Entity.Property]
        let toOne: [Schema.Entity.Property]
        let toMany: [Schema.Entity.Property]
        private let byName: [String: Schema.Entity.Property]

        /// The synced properties of an entity, of which relationships only to `syncedEntities` (the rest stay
        /// local).
        init(_ entity: Schema.Entity, syncedEntities: Set<String>) {
            self.entity = entity
            let synced = entity.persistedProperties.filter { property in
                guard !property.schemaProperty.isTransient else { return false }
                guard let destination = property.relationshipInfo?.destination else { return true }
                return destination.hierarchyNames.allSatisfy(syncedEntities.contains)
            }
            attributes = synced.filter { !$0.isRelationship }
            toOne = synced.filter { property in
                guard let info = property.relationshipInfo, !info.isToMany else { return false }
                return SyncSchema.carriesLink(property)
            }
            toMany = synced.filter { property in
                guard let info = property.relationshipInfo, info.isToMany else { return false }
                return SyncSchema.carriesLink(property)
            }
            byName = Dictionary((attributes + toOne + toMany).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        }

        /// The property a field of this entity's records sets, or nil for a field this schema does not know (one a
        /// newer schema added) or a relationship side that follows from its other side.
        func field(named name: String) -> Field? {
            if let slash = name.firstIndex(of: "/") {
                let relationship = String(name[..<slash])
                guard let property = byName[relationship], property.relationshipInfo?.isToMany == true else {
                    return nil
                }
                return .member(property, target: String(name[name.index(after: slash)...]))
            }
            guard let property = byName[name] else { return nil }
            guard let info = property.relationshipInfo else { return .attribute(property) }
            return info.isToMany ? nil : .toOne(property)
        }
    }

    let entities: [String: Entity]

    init(entities: [Schema.Entity]) {
        let names = Set(entities.map(\.name))
        self.entities = Dictionary(
            entities.map { ($0.name, Entity($0, syncedEntities: names)) }, uniquingKeysWith: { a, _ in a })
    }

    /// A text that changes when the synced entities or properties change: records fetched while a field or entity
    /// was unknown are fetched again after it.
    var signature: String {
        entities.keys.sorted().map { name in
            let entity = entities[name]!
            let fields = (entity.attributes + entity.toOne + entity.toMany).map(\.name).sorted()
            return name + "(" + fields.joined(separator: ",") + ")"
        }.joined(separator: ";")
    }

    // MARK: - Checking CloudKit's Rules

    /// Each property and constraint of the entities that breaks a rule of synced models.
    static func violations(in entities: [Schema.Entity]) -> [SyncError.Violation] {
        var found: [SyncError.Violation] = []
        var seen = Set<SyncError.Violation>()
        func add(_ entity: String, _ property: String, _ rule: SyncError.Rule) {
            let violation = SyncError.Violation(entityName: entity, propertyName: property, rule: rule)
            if seen.insert(violation).inserted { found.append(violation) }
        }
        for entity in entities {
            let inherited = Set(entity.superentity?.persistedProperties.map(\.name) ?? [])
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                add(entity.name, constraint.joined(separator: ", "), .uniqueConstraint)
            }
            for property in entity.persistedProperties where !inherited.contains(property.name) {
                if let relationship = property.relationshipInfo?.declaration {
                    if !property.isOptional || (relationship.minimumModelCount ?? 0) > 0 {
                        add(entity.name, property.name, .nonOptionalRelationship)
                    }
                    if let maximum = relationship.maximumModelCount, maximum > 0 {
                        add(entity.name, property.name, .maximumModelCount)
                    }
                    if relationship.deleteRule == .deny { add(entity.name, property.name, .denyDeleteRule) }
                } else if let attribute = property.schemaProperty as? Schema.Attribute {
                    guard !attribute.isTransient else { continue }
                    if attribute.isUnique { add(entity.name, property.name, .uniqueConstraint) }
                    if !property.isOptional, property.defaultValue == nil {
                        add(entity.name, property.name, .requiredAttributeWithoutDefault)
                    }
                }
            }
        }
        return found
    }

    // MARK: - Internal

    /// True for a to-one relationship whose inverse is a to-one relationship.
    static func isOneToOne(_ property: Schema.Entity.Property) -> Bool {
        guard let info = property.relationshipInfo, !info.isToMany,
            let inverse = info.inverse?.relationshipInfo
        else { return false }
        return !inverse.isToMany
    }

    /// True when a relationship's own records carry its links; false when its inverse's do.
    static func carriesLink(_ property: Schema.Entity.Property) -> Bool {
        guard let info = property.relationshipInfo else { return false }
        if info.isToMany, info.sharesInverse { return true }
        guard let inverse = info.inverse, let inverseInfo = inverse.relationshipInfo else { return true }
        if inverse === property { return true }
        if info.isToMany != inverseInfo.isToMany { return !info.isToMany }
        // Both sides alike: the side whose (entity, property) comes first carries the links.
        let own = (inverseInfo.destination.name, property.name)
        let other = (info.destination.name, inverse.name)
        return own < other
    }
}
