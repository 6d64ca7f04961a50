/// What a batched fetch keeps of the rows it lists, read together with their identifiers, so that the model of a
/// row deleted before its batch is read still has a value for every property (see `ModelContext.fetch(_:batchSize:)`).
///
/// It keeps only what such a model cannot stand in for: the values of the attributes that have no placeholder
/// (`Schema.Entity.Property.placeholderValue`), the target of each non-optional to-one relationship, and the class
/// of each row of an entity with subclasses. The rows those to-ones refer to are kept in the same way, read in the
/// same snapshot of their store (`ModelStore.withReadSnapshot(_:)`), so that a target deleted too still has a
/// model. A fetch of an entity whose attributes all have placeholders, with no non-optional to-one and no subclass,
/// keeps nothing: it reads identifiers alone.
///
/// Everything is read through the store's `readRows(_:_:)`: the fetch's rows with the kept properties
/// (`StoreReadRequest.properties`), the targets by identifier, and, for a to-one whose link its target's row holds,
/// the targets whose inverse refers to the rows (`StoreReadRequest.Selection.related`). Rows are kept as the store
/// hands them over (`StoreRow.retained()`) and decoded once every read is over, when the store holds nothing, since
/// decoding may run code of the app.
final class LastKnownValues {
    /// What is kept of one row: its own entity and identifier, and the values of the entity's kept properties
    /// (`keptProperties(of:)`), in order, from `start` on in `values`.
    struct Row {
        /// The row's own class: in an inheritance hierarchy, maybe a subclass of the entity read.
        let entity: Schema.Entity
        /// The row's identifier, naming `entity`.
        let identifier: PersistentIdentifier
        let start: Int
    }

    /// The container of the fetch: a vanished row's to-one target is read through it.
    let container: ModelContainer
    /// The kept values of every row. An attribute's is its value; a to-one's is the target's identifier (a
    /// `PersistentIdentifier?`), or the target itself when it is not saved.
    private var values: [Any] = []
    /// The rows of the fetch by position, or empty when nothing is kept of them.
    private var rows: [Row] = []
    /// The rows kept to-ones refer to, by `targetKey(of:)`.
    private var targets: [PersistentIdentifier: Row] = [:]
    /// The kept properties of each entity involved, by entity name (see `prepare(_:)`).
    private var keptByEntity: [String: [Schema.Entity.Property]] = [:]
    /// The entities whose rows a read of an entity can return (itself and its subclasses that its store holds), by
    /// entity name.
    private var membersByEntity: [String: [Schema.Entity]] = [:]

    init(container: ModelContainer) {
        self.container = container
    }

    /// The number of values kept, over every row: what a batched fetch holds beyond its identifiers and batches.
    var keptValueCount: Int { values.count }

    // MARK: - Models of Vanished Rows

    /// A model of a row that is gone from the store: marked deleted, in no context, each kept property holding
    /// the value read with the row's identifier (a non-optional to-one resolving to its target, read through the
    /// container, or to a model of the target's row made in the same way when that row is gone too), every other
    /// attribute its placeholder and every other relationship no model. `position` is the row's position in the
    /// fetch; without one, the row is one a kept to-one refers to.
    func vanishedModel(for identifier: PersistentIdentifier, at position: Int? = nil) -> (any PersistentModel)? {
        let row = self.row(at: position, identifier: identifier)
        guard let entity = row?.entity ?? container.schema.modelEntitiesByName[identifier.entityName] else {
            return nil
        }
        let kept = row.map(keptSlots) ?? [:]
        return entity.vanishedStandIn(
            identifier: row?.identifier ?? identifier.withEntityName(entity.name), kept: kept, container: container)
    }

    /// What is kept of the row at a position of the fetch, or else of the row with an identifier that a kept
    /// to-one refers to.
    func row(at position: Int?, identifier: PersistentIdentifier) -> Row? {
        if let position, !rows.isEmpty { return rows[position] }
        return targets[targetKey(of: identifier)]
    }

    /// The slot values of a row's kept properties, by slot index: an attribute's value, a to-one's fault on its
    /// target (or the target itself, when it is not saved). A to-one whose row referred to no row is left out.
    func keptSlots(of row: Row) -> [Int: Any] {
        var slots: [Int: Any] = [:]
        for (offset, property) in keptProperties(of: row.entity).enumerated() {
            let value = values[row.start + offset]
            if !property.isRelationship {
                slots[property.index] = value
            } else if let model = value as? any PersistentModel {
                slots[property.index] = model
            } else if let target = value as? PersistentIdentifier {
                slots[property.index] = ModelStorage.ToOneFault(target: target, lastKnown: self)
            }
        }
        return slots
    }

    /// Lets the unresolved non-optional to-ones of a model the fetch lists fall back on what was kept of their
    /// targets, should those rows be gone when they are resolved.
    func backTargets(of storage: ModelStorage) {
        guard !rows.isEmpty else { return }
        for property in keptProperties(of: storage.entity) where property.isRelationship {
            guard property.index < storage.values.count,
                let fault = storage.values[property.index] as? ModelStorage.ToOneFault, fault.lastKnown == nil
            else { continue }
            storage.values[property.index] = ModelStorage.ToOneFault(target: fault.target, lastKnown: self)
        }
    }

    // MARK: - Reading with the Identifiers

    /// Reads the identifiers of the rows `request` selects, named as `ModelStore.identifiers(_:)` names them,
    /// together with what is kept of each, then the rows their kept to-ones refer to, to closure: those in `store`
    /// in one snapshot with the fetch's rows, those in other stores in a snapshot of each. Returns nil, having read
    /// nothing, when nothing would be kept: the caller reads the identifiers alone.
    ///
    /// - Throws: what `ModelStore.readRows(_:_:)` throws (`StoreCannotEvaluate` included), and
    ///   `SwiftDataError.loadIssueModelContainer` when a kept value does not fit its type.
    func read(_ request: StoreReadRequest, from store: any ModelStore) throws -> [PersistentIdentifier]? {
        // Working out placeholders may run code of the app, which must not run while the store holds a
        // connection: every entity the reads can meet is prepared first.
        try prepare(request.entity)
        let entity = request.entity
        guard keepsValues(of: entity) else { return nil }
        var reader = Reader()
        var request = request
        request.properties = propertiesToRead(of: entity)
        let identifiers: [PersistentIdentifier]
        if readsMoreThanTheRows(of: entity) {
            identifiers = try store.withReadSnapshot {
                let identifiers = try readFetchedRows(request, from: store, into: &reader)
                try readPendingTargets(in: store, into: &reader)
                return identifiers
            }
        } else {
            // A read of the rows alone needs no snapshot: one read sees one state of the store.
            identifiers = try readFetchedRows(request, from: store, into: &reader)
        }
        try readPendingTargetsInOtherStores(into: &reader)
        try keep(reader)
        return identifiers
    }

    /// Keeps what would be kept of models a fetch read in full (a fetch evaluated in memory), taken from the
    /// models themselves, and the values of the rows their kept to-ones refer to, loaded through their context.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the targets' store cannot be read.
    func capture(_ models: [some PersistentModel], of entity: Schema.Entity) throws {
        try prepare(entity)
        guard members(of: entity).contains(where: { !keptProperties(of: $0).isEmpty }) else { return }
        var pending: [any PersistentModel] = []
        var seen: Set<PersistentIdentifier> = []
        rows.reserveCapacity(models.count)
        for model in models { rows.append(try captureRow(of: model.storage, pending: &pending, seen: &seen)) }
        // The targets stay loaded in the models above until each is kept.
        while let target = pending.popLast() {
            targets[targetKey(of: target.storage.identifier)] = try captureRow(
                of: target.storage, pending: &pending, seen: &seen)
        }
    }

    // MARK: - Internal

    /// The rows the reads gather, kept as their stores handed them over until every read is over.
    private struct Reader {
        /// The rows of the fetch, in order.
        var rows: [any StoreRow] = []
        /// The rows kept to-ones refer to, by `targetKey(of:)`.
        var targets: [(key: PersistentIdentifier, row: any StoreRow)] = []
        /// Targets to read by identifier, by the name of the entity the to-ones refer to.
        var pendingTargets: [String: (destination: Schema.Entity, identifiers: [PersistentIdentifier])] = [:]
        /// Owners whose targets hold the links, to read by the targets' inverse, by `linkName(of:in:)`.
        var pendingLinks: [String: (property: Schema.Entity.Property, owners: [PersistentIdentifier])] = [:]
        /// The targets noted so far (read, pending, or needing no read), by `targetKey(of:)`.
        var seen: Set<PersistentIdentifier> = []
        /// The target of each owner of a to-one whose link the target's row holds, by `linkName(of:in:)` and the
        /// owner's `targetKey(of:)`.
        var linkedTargets: [String: [PersistentIdentifier: PersistentIdentifier]] = [:]

        var hasPendingReads: Bool { !pendingTargets.isEmpty || !pendingLinks.isEmpty }
    }

    /// Reads the fetch's rows, noting the reads their kept to-ones need, and returns their identifiers.
    private func readFetchedRows<Store: ModelStore>(
        _ request: StoreReadRequest, from store: Store, into reader: inout Reader
    ) throws -> [PersistentIdentifier] {
        var identifiers: [PersistentIdentifier] = []
        try store.readRows(request) { row in
            let row = row.retained()
            identifiers.append(row.identifier)
            reader.rows.append(row)
            try note(row, into: &reader)
        }
        return identifiers
    }

    /// Notes the reads a row's kept to-ones need: their targets, by identifier, when the targets' rows keep
    /// values of their own; the rows that hold the links, for a to-one whose link its target's row holds.
    private func note(_ row: some StoreRow, into reader: inout Reader) throws {
        for property in keptProperties(of: row.entity) {
            guard let info = property.relationshipInfo else { continue }
            let destination = info.destination!
            let state = try row.value(of: property)
            if let fault = container.locatingTarget(of: state, property: property) as? ModelStorage.ToOneFault {
                guard let target = fault.target, reader.seen.insert(targetKey(of: target)).inserted,
                    keepsValues(of: destination)
                else { continue }
                reader.pendingTargets[destination.name, default: (destination, [])].identifiers.append(target)
            } else if info.linksLiveInTargets, info.inverse != nil {
                let name = linkName(of: property, in: row.entity)
                reader.pendingLinks[name, default: (property, [])].owners.append(row.identifier)
            }
        }
    }

    /// Reads the pending targets in `store`, and theirs in turn, to closure.
    private func readPendingTargets<Store: ModelStore>(in store: Store, into reader: inout Reader) throws {
        func isIn(_ entity: Schema.Entity) -> Bool { (try? container.store(for: entity)) === store }
        while true {
            let targets = reader.pendingTargets.filter { isIn($0.value.destination) }
            let links = reader.pendingLinks.filter { isIn($0.value.property.relationshipInfo!.destination) }
            guard !targets.isEmpty || !links.isEmpty else { return }
            for (name, (destination, identifiers)) in targets {
                reader.pendingTargets[name] = nil
                var request = StoreReadRequest(entity: destination, selection: .identifiers(identifiers))
                request.properties = propertiesToRead(of: destination)
                try store.readRows(request) { row in
                    let row = row.retained()
                    reader.targets.append((targetKey(of: row.identifier), row))
                    try note(row, into: &reader)
                }
            }
            for (name, (property, owners)) in links {
                reader.pendingLinks[name] = nil
                try readLinkedTargets(of: property, owners: owners, named: name, from: store, into: &reader)
            }
        }
    }

    /// Reads the targets of a to-one whose links its targets' rows hold: the rows whose inverse refers to one of
    /// the owners, the first by identifier for each owner, as a relationship load reads them.
    private func readLinkedTargets<Store: ModelStore>(
        of property: Schema.Entity.Property, owners: [PersistentIdentifier], named name: String, from store: Store,
        into reader: inout Reader
    ) throws {
        let info = property.relationshipInfo!
        let destination = info.destination!
        let inverse = info.inverse!
        var request = StoreReadRequest(entity: destination, selection: .related(through: inverse, owners: owners))
        request.ordersByIdentifier = true
        request.properties = propertiesToRead(of: destination)
        let keepsTargets = keepsValues(of: destination)
        try store.readRows(request) { row in
            // A row of a subclass numbers its properties its own way.
            let own = row.entity === destination ? inverse : row.entity.property(named: inverse.name) ?? inverse
            let state = container.locatingTarget(of: try row.value(of: own), property: own)
            guard let owner = (state as? ModelStorage.ToOneFault)?.target else { return }
            let target = targetKey(of: row.identifier)
            guard reader.linkedTargets[name, default: [:]][targetKey(of: owner)] == nil else { return }
            reader.linkedTargets[name, default: [:]][targetKey(of: owner)] = target
            guard reader.seen.insert(target).inserted, keepsTargets else { return }
            let retained = row.retained()
            reader.targets.append((target, retained))
            try note(retained, into: &reader)
        }
    }

    /// Reads the pending targets whose entities are in other stores than the fetch's, each store in a snapshot of
    /// its own.
    private func readPendingTargetsInOtherStores(into reader: inout Reader) throws {
        while reader.hasPendingReads {
            let destination =
                reader.pendingTargets.values.first?.destination
                ?? reader.pendingLinks.values.first!.property.relationshipInfo!.destination!
            let store = try container.store(for: destination)
            try store.withReadSnapshot { try readPendingTargets(in: store, into: &reader) }
        }
    }

    /// Decodes what the reads gathered into the kept values.
    private func keep(_ reader: Reader) throws {
        func decoded(_ row: any StoreRow) throws -> Row {
            let start = values.count
            for property in keptProperties(of: row.entity) {
                guard property.isRelationship else {
                    values.append(try row.value(of: property))
                    continue
                }
                let state = container.locatingTarget(of: try row.value(of: property), property: property)
                let target: PersistentIdentifier? =
                    if let fault = state as? ModelStorage.ToOneFault {
                        fault.target
                    } else {
                        reader.linkedTargets[linkName(of: property, in: row.entity)]?[targetKey(of: row.identifier)]
                    }
                values.append(target as Any)
            }
            return Row(entity: row.entity, identifier: row.identifier, start: start)
        }
        rows = try reader.rows.map(decoded)
        for (key, row) in reader.targets { targets[key] = try decoded(row) }
    }

    /// Keeps the values of a model's kept properties, read from the model, and notes the saved targets of its kept
    /// to-ones whose entities keep values of their own.
    private func captureRow(
        of storage: ModelStorage, pending: inout [any PersistentModel], seen: inout Set<PersistentIdentifier>
    ) throws -> Row {
        try prepare(storage.entity)
        let start = values.count
        for property in keptProperties(of: storage.entity) {
            let value = storage.value(at: property.index)
            guard property.isRelationship else {
                values.append(value)
                continue
            }
            guard let target = property.relatedModels(in: value).first else {
                values.append(PersistentIdentifier?.none as Any)
                continue
            }
            let identifier = target.storage.identifier
            guard !identifier.isTemporary else {
                values.append(target)
                continue
            }
            values.append(PersistentIdentifier?.some(identifier) as Any)
            try prepare(target.storage.entity)
            guard !keptProperties(of: target.storage.entity).isEmpty,
                seen.insert(targetKey(of: identifier)).inserted
            else { continue }
            pending.append(target)
        }
        return Row(entity: storage.entity, identifier: storage.identifier, start: start)
    }

    // MARK: - What Is Kept

    /// Works out what is kept of `entity`'s rows, of its subclasses', and of the rows their kept to-ones refer to,
    /// once per fetch.
    ///
    /// - Throws: `SwiftDataError` when an entity is not in the container's schema.
    private func prepare(_ entity: Schema.Entity) throws {
        guard membersByEntity[entity.name] == nil else { return }
        let store = try container.store(for: entity)
        let held = Dictionary(store.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let members = entity.hierarchyNames.compactMap { held[$0] }
        membersByEntity[entity.name] = members.isEmpty ? [entity] : members
        var destinations: [Schema.Entity] = []
        for member in members where keptByEntity[member.name] == nil {
            let kept = member.persistedProperties.filter { property in
                guard let info = property.relationshipInfo else {
                    return property.codec != nil && property.placeholderValue == nil
                }
                guard !info.isToMany, !property.isOptional else { return false }
                switch info.storage {
                case .foreignKey: return true
                case .inverseForeignKey: return info.inverse != nil
                case .joinTable: return false
                }
            }
            keptByEntity[member.name] = kept
            destinations += kept.compactMap { $0.relationshipInfo?.destination }
        }
        for destination in destinations { try prepare(destination) }
    }

    /// The properties kept of an entity's rows: its stored attributes that have no placeholder and its non-optional
    /// to-one relationships (but those kept in a join table), in slot order.
    private func keptProperties(of entity: Schema.Entity) -> [Schema.Entity.Property] {
        keptByEntity[entity.name] ?? []
    }

    /// The entities a read of an entity's rows can give rows of.
    private func members(of entity: Schema.Entity) -> [Schema.Entity] {
        membersByEntity[entity.name] ?? [entity]
    }

    /// True when something is kept of an entity's rows: a kept property, or the class of each row.
    private func keepsValues(of entity: Schema.Entity) -> Bool {
        let members = members(of: entity)
        return members.count > 1 || members.contains { !keptProperties(of: $0).isEmpty }
    }

    /// True when reading the kept values of an entity's rows can take more reads than the rows': some kept to-one
    /// refers to rows that keep values, or has its link in its target's row.
    private func readsMoreThanTheRows(of entity: Schema.Entity) -> Bool {
        members(of: entity).contains { member in
            keptProperties(of: member).contains { property in
                guard let info = property.relationshipInfo else { return false }
                return info.linksLiveInTargets || keepsValues(of: info.destination)
            }
        }
    }

    /// The properties a read of an entity's rows loads: the kept ones, by the entity's slot indexes; nil (every
    /// property) when a subclass keeps an attribute of its own, which the entity's indexes cannot name.
    private func propertiesToRead(of entity: Schema.Entity) -> Set<Int>? {
        var properties: Set<Int> = []
        for member in members(of: entity) {
            for property in keptProperties(of: member) {
                guard let own = member === entity ? property : entity.property(named: property.name) else {
                    return nil
                }
                properties.insert(own.index)
            }
        }
        return properties
    }

    /// The key a target is kept under: its identifier naming its hierarchy's root entity, since a to-one names
    /// its declared destination and a row read names its own class.
    private func targetKey(of identifier: PersistentIdentifier) -> PersistentIdentifier {
        guard let entity = container.schema.modelEntitiesByName[identifier.entityName], entity.superentity != nil else {
            return identifier
        }
        return identifier.withEntityName(entity.rootEntity.name)
    }

    /// The name a to-one whose link its target's row holds is known by, the same for the classes of a hierarchy.
    private func linkName(of property: Schema.Entity.Property, in entity: Schema.Entity) -> String {
        entity.rootEntity.name + "." + property.name
    }
}
