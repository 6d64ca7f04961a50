/// Identifiers a read was asked for, matched by key to the identifiers the store gives back.
///
/// The classes of an inheritance hierarchy share their rows' keys, and a store names each row after its own class,
/// where the identifier asked for may name another class of the hierarchy. Outside a hierarchy the two agree, and
/// nothing is kept.
struct AskedIdentifiers {
    private let entityName: String
    private let byKey: [PersistentIdentifier: PersistentIdentifier]?

    init(_ identifiers: some Sequence<PersistentIdentifier>, of entity: Schema.Entity) {
        entityName = entity.name
        guard entity.superentityType != nil || !entity.subentities.isEmpty else {
            byKey = nil
            return
        }
        var byKey: [PersistentIdentifier: PersistentIdentifier] = [:]
        for identifier in identifiers { byKey[identifier.withEntityName(entity.name)] = identifier }
        self.byKey = byKey
    }

    /// The identifier asked for that has the given one's key, or the given one when none has.
    func asked(for identifier: PersistentIdentifier) -> PersistentIdentifier {
        byKey?[identifier.withEntityName(entityName)] ?? identifier
    }
}
