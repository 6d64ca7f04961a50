/// Makes the `HistoryChange`s of a recorded group of changes, typed by the model class of the group's entity.
struct HistoryChangeMaker {
    let entity: Schema.Entity
    let group: RecordedChanges.Group
    /// What the identifiers of the group's models share: their store's scope of the entity.
    let scope: IdentifierScope
    let token: Int64
    /// The position of the group's first change in its transaction.
    let firstOrdinal: Int64

    /// A change's identifier: its transaction's token in the high bits and its position in the transaction in the
    /// low ones, so that later changes have greater identifiers.
    static func changeIdentifier(token: Int64, ordinal: Int64) -> Int64 { token << 32 | ordinal }

    /// The group's changes as changes of `Model`, the entity's class.
    func changes<Model: PersistentModel>(of _: Model.Type) -> [HistoryChange] {
        // What every change of the group is, whatever its kind: its identifier, its model's, its transaction's.
        let identities = group.keys.enumerated().map { offset, key in
            (
                change: Self.changeIdentifier(token: token, ordinal: firstOrdinal + Int64(offset)),
                model: PersistentIdentifier(scope: scope, primaryKey: key)
            )
        }
        switch group.kind {
        case .insert:
            return identities.map {
                .insert(
                    DefaultHistoryInsert<Model>(
                        changeIdentifier: $0.change, changedPersistentIdentifier: $0.model,
                        transactionIdentifier: token))
            }
        case .update:
            let keyPaths: [any PartialKeyPath<Model> & Sendable] = group.properties.compactMap {
                entity.property(named: $0).flatMap { keyPath(of: $0, in: Model.self) }
            }
            return identities.map {
                .update(
                    DefaultHistoryUpdate<Model>(
                        changeIdentifier: $0.change, changedPersistentIdentifier: $0.model,
                        transactionIdentifier: token, updatedAttributes: keyPaths))
            }
        case .delete:
            let properties = group.preservedNames.map { entity.property(named: $0) }
            return identities.enumerated().map { offset, identity in
                let row = offset < group.preservedValues.count ? group.preservedValues[offset] : []
                var entries: [(keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)] = []
                for (property, columns) in zip(properties, row) {
                    guard let property, let keyPath = keyPath(of: property, in: Model.self),
                        let value = Self.decoded(columns, of: property)
                    else { continue }
                    entries.append((keyPath, value))
                }
                return .delete(
                    DefaultHistoryDelete<Model>(
                        changeIdentifier: identity.change, changedPersistentIdentifier: identity.model,
                        tombstone: HistoryTombstone(entries), transactionIdentifier: token))
            }
        }
    }

    /// A property's key path rooted at `Model`, the entity's class, even when a superclass declares the property:
    /// `\Truck.name` rather than the schema metadata's `\Vehicle.name`, which is no `PartialKeyPath<Truck>`.
    private func keyPath<Model>(of property: Schema.Entity.Property, in _: Model.Type) -> (
        any PartialKeyPath<Model> & Sendable
    )? {
        let keyPaths = entity.classKeyPaths
        let keyPath = property.index < keyPaths.count ? keyPaths[property.index] : property.keyPath
        return Self.sendableKeyPath(keyPath, of: Model.self)
    }

    /// A property's key path as the sendable key path history hands out. Key paths of stored properties of a model
    /// class hold no state, so they are safe to share; `Sendable` is a marker with no representation, so the
    /// reference is the same.
    static func sendableKeyPath<Model>(_ keyPath: AnyKeyPath, of _: Model.Type) -> (
        any PartialKeyPath<Model> & Sendable
    )? {
        guard let keyPath = keyPath as? PartialKeyPath<Model> else { return nil }
        return withUnsafePointer(to: keyPath) {
            UnsafeRawPointer($0).load(as: (any PartialKeyPath<Model> & Sendable).self)
        }
    }

    /// A preserved attribute's value decoded from its stored columns, or nil when it was nil or no longer decodes
    /// as the property's type (the class changed since). Attribute values are values of the property's type —
    /// numbers, strings, dates, data, enumerations, `Codable` structures — made afresh from the store, shared by no
    /// one, so they are passed on as `Sendable`.
    private static func decoded(_ columns: [SQLValue], of property: Schema.Entity.Property) -> (any Sendable)? {
        guard let codec = property.codec, let value = try? codec.decodeColumns(columns[...]),
            let unwrapped = unwrappedValue(value)
        else { return nil }
        return sendable(unwrapped)
    }

    /// The same existential seen as `Sendable`, a marker protocol with no representation: `Any` and `any Sendable`
    /// have one layout. (`unsafeBitCast` refuses the two as types of different sizes in Swift 6 mode.)
    private static func sendable(_ value: Any) -> any Sendable {
        withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: (any Sendable).self) }
    }
}
