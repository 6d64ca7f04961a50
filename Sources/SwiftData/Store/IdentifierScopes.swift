/// The scopes of the identifiers one store makes: one per entity, made when the store opens and kept while it is
/// open, so that every identifier of an entity's rows the store makes — in any read, save or history — holds the same
/// scope. Comparing two such identifiers compares references, and making one allocates nothing.
///
/// A name the table does not know (an entity removed from the schema that history still names) gets a scope of its
/// own, made when asked for: identifiers with it still equal the others, by their strings.
package struct IdentifierScopes: Sendable {
    /// The identifier of the store that every scope names.
    package let storeIdentifier: String
    private let byName: [String: IdentifierScope]

    /// The scopes of a store's entities (every class of a hierarchy the store holds is one of them) and of the
    /// destinations of their relationships, and of theirs in turn: a store names itself in the identifiers of the
    /// targets it reads, wherever they are stored.
    package init(storeIdentifier: String, entities: [Schema.Entity]) {
        self.storeIdentifier = storeIdentifier
        var byName: [String: IdentifierScope] = [:]
        func add(_ entity: Schema.Entity) {
            guard byName[entity.name] == nil else { return }
            byName[entity.name] = IdentifierScope(storeIdentifier: storeIdentifier, entityName: entity.name)
            for property in entity.persistedProperties {
                if let destination = property.relationshipInfo?.destination { add(destination) }
            }
        }
        for entity in entities { add(entity) }
        self.byName = byName
    }

    /// The scope of an entity's identifiers in the store.
    package subscript(entityName: String) -> IdentifierScope {
        byName[entityName] ?? IdentifierScope(storeIdentifier: storeIdentifier, entityName: entityName)
    }
}
