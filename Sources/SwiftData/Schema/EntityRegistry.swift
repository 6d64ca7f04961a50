/// Builds each model type's `Schema.Entity` once per process, together with every entity reachable through its
/// relationships, and resolves inverses and relationship storage before publishing them.
final class EntityRegistry: Sendable {
    static let shared = EntityRegistry()

    /// Entities by model type; the lookup every new model makes takes no lock.
    private let entities = PublishedSnapshot<ObjectIdentifier, Schema.Entity>()

    /// Every entity built so far.
    var knownEntities: [Schema.Entity] { entities.allValues }

    func entity<Model: PersistentModel>(for modelType: Model.Type) -> Schema.Entity {
        entity(forType: modelType)
    }

    func entity(forType modelType: any PersistentModel.Type) -> Schema.Entity {
        if let entity = entities.value(for: ObjectIdentifier(modelType)) { return entity }
        return entities.update { known in buildEntity(forType: modelType, known: &known) }
    }

    private func buildEntity(
        forType modelType: any PersistentModel.Type,
        known: inout [ObjectIdentifier: Schema.Entity]
    ) -> Schema.Entity {
        do {
            if let entity = known[ObjectIdentifier(modelType)] { return entity }
            var built: [Schema.Entity] = []
            var worklist: [any PersistentModel.Type] = [modelType]
            while let next = worklist.popLast() {
                guard known[ObjectIdentifier(next)] == nil else { continue }
                let entity = makeEntity(next)
                known[ObjectIdentifier(next)] = entity
                built.append(entity)
                worklist += entity.persistedProperties.compactMap { $0.relationshipInfo?.destinationType }
            }
            for entity in built {
                for property in entity.persistedProperties {
                    guard let info = property.relationshipInfo else { continue }
                    info.destination = known[ObjectIdentifier(info.destinationType)]
                }
            }
            for entity in built { resolveInverses(of: entity) }
            for entity in built { resolveSharedInverses(of: entity) }
            for entity in built { markInversesOfSeveral(in: entity) }
            for entity in built { resolveStorage(of: entity) }
            return known[ObjectIdentifier(modelType)]!
        }
    }

    private func makeEntity<Model: PersistentModel>(_ modelType: Model.Type) -> Schema.Entity {
        Schema.Entity(modelType: modelType)
    }

    /// Finds each relationship's inverse: the declared `inverse:` key path, a relationship on the other side that
    /// declares this one as its inverse, or, when exactly one relationship on each side links the two entities,
    /// that one.
    private func resolveInverses(of entity: Schema.Entity) {
        for property in entity.persistedProperties {
            guard let info = property.relationshipInfo, info.inverse == nil, !info.declaration.isUnidirectional else {
                continue
            }
            let destination = info.destination!
            var inverse: Schema.Entity.Property?
            if let keyPath = info.declaration.inverseKeyPath, let index = destination.indexIfPersisted(keyPath) {
                inverse = destination.persistedProperties[index]
            } else {
                let declaringThis = destination.persistedProperties.filter {
                    $0.relationshipInfo?.declaration.inverseKeyPath == property.keyPath
                }
                if declaringThis.count == 1 {
                    inverse = declaringThis[0]
                } else {
                    inverse = inferredInverse(of: property, in: entity, destination: destination)
                }
            }
            guard let inverse, inverse !== property else { continue }
            info.inverse = inverse
            inverse.relationshipInfo?.inverse = property
            info.declaration.inverseName = inverse.name
            inverse.relationshipInfo?.declaration.inverseName = property.name
        }
    }

    /// Finds to-one relationships that several to-many relationships of the other side name as their inverse
    /// (Apple's Backyard Birds: `leadingPlants` and `trailingPlants`, both `inverse: \Plant.backyard`). Each of
    /// those to-many relationships keeps its own members, in a join table of its own, and the to-one holds the
    /// model whose relationship last took it in (see `RelationshipInfo.sharedInverses`).
    private func resolveSharedInverses(of entity: Schema.Entity) {
        for property in entity.persistedProperties {
            guard let info = property.relationshipInfo, !info.isToMany, let destination = info.destination else {
                continue
            }
            let sharing = destination.persistedProperties.filter { candidate in
                guard let candidateInfo = candidate.relationshipInfo, candidateInfo.isToMany,
                    candidateInfo.destination === entity
                else { return false }
                return candidateInfo.inverse === property
                    || candidateInfo.declaration.inverseKeyPath == property.keyPath
            }
            guard sharing.count > 1 else { continue }
            info.inverse = nil
            info.sharedInverses = sharing
            for candidate in sharing {
                candidate.relationshipInfo?.inverse = property
                candidate.relationshipInfo?.sharesInverse = true
            }
        }
    }

    /// Marks the relationships that several relationships of their destination name as their inverse (see
    /// `RelationshipInfo.isInverseOfSeveral`).
    private func markInversesOfSeveral(in entity: Schema.Entity) {
        for property in entity.persistedProperties {
            guard let info = property.relationshipInfo, let destination = info.destination else { continue }
            info.isInverseOfSeveral =
                destination.persistedProperties.count { $0.relationshipInfo?.inverse === property } > 1
        }
    }

    private func inferredInverse(
        of property: Schema.Entity.Property,
        in entity: Schema.Entity,
        destination: Schema.Entity
    ) -> Schema.Entity.Property? {
        func undeclared(_ candidate: Schema.Entity.Property, pointingTo target: Schema.Entity) -> Bool {
            guard let info = candidate.relationshipInfo else { return false }
            return info.destination === target && info.declaration.inverseKeyPath == nil
                && !info.declaration.isUnidirectional
        }
        // A relationship of an entity to itself is never inferred: a tree's parent and children name each other.
        guard entity !== destination else { return nil }
        let fromHere = entity.persistedProperties.filter { undeclared($0, pointingTo: destination) }
        let fromThere = destination.persistedProperties.filter { undeclared($0, pointingTo: entity) }
        if fromThere.count > 1 || (fromHere.count > 1 && !fromThere.isEmpty) {
            entity.relationshipIssues.append(
                "the inverse of \(entity.name).\(property.name) is ambiguous: \(destination.name) relates to "
                    + "\(entity.name) through \(fromThere.map(\.name).joined(separator: ", ")); "
                    + "declare it with @Relationship(inverse:)"
            )
            return nil
        }
        guard fromHere.count == 1, fromThere.count == 1 else { return nil }
        return fromThere[0]
    }

    /// Decides where each relationship's links are stored (see `RelationshipStorage`).
    private func resolveStorage(of entity: Schema.Entity) {
        for property in entity.persistedProperties {
            guard let info = property.relationshipInfo else { continue }
            info.inverseSides = info.inverse.map { [$0] } ?? info.sharedInverses
            let ownName = "\(entity.name).\(property.name)"
            guard let inverse = info.inverse, let inverseInfo = inverse.relationshipInfo else {
                info.storage =
                    info.isToMany
                    ? .joinTable(name: "\(entity.name)_\(property.name)", ownerColumn: "owner", targetColumn: "target")
                    : .foreignKey(column: property.name)
                continue
            }
            let inverseName = "\(info.destination.name).\(inverse.name)"
            let ownsLink = ownName < inverseName
            if info.sharesInverse {
                info.storage = .joinTable(
                    name: "\(entity.name)_\(property.name)", ownerColumn: "owner", targetColumn: "target")
                continue
            }
            switch (info.isToMany, inverseInfo.isToMany) {
            case (false, true):
                info.storage = .foreignKey(column: property.name)
            case (true, false):
                info.storage = .inverseForeignKey(column: inverse.name)
            case (false, false):
                info.storage = ownsLink ? .foreignKey(column: property.name) : .inverseForeignKey(column: inverse.name)
            case (true, true):
                let owner = ownsLink ? entity.name + "_" + property.name : info.destination.name + "_" + inverse.name
                info.storage =
                    ownsLink
                    ? .joinTable(name: owner, ownerColumn: "owner", targetColumn: "target")
                    : .joinTable(name: owner, ownerColumn: "target", targetColumn: "owner")
            }
        }
    }
}
