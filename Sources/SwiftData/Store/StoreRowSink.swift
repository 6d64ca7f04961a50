/// What takes the rows of a read as the store hands them over: the slots of a new model for a row no model holds,
/// the row itself for one a model holds.
///
/// A store hands rows to a sink through `ModelStore.readRows(_:into:)`, whose loop is compiled for each store type,
/// so a read of many rows makes one call into the sink per row and none per property.
package protocol StoreRowSink: AnyObject {
    /// The to-one relationship whose stored target each row reports to `take`, or nil.
    var storedTargetProperty: Schema.Entity.Property? { get }
    /// True when a model of the row is held already: the row is then handed over whole, to apply after the read.
    func holdsModel(of identifier: PersistentIdentifier) -> Bool
    /// A row no model holds, as the slots of its new model, with the target the row names in
    /// `storedTargetProperty` (see `StoreRow.target(of:)`).
    func takeNew(
        _ identifier: consuming PersistentIdentifier, entity: Schema.Entity, slots: ModelSlots,
        storedTarget: consuming PersistentIdentifier?)
    /// A row a model holds, valid after the read, with its stored target as for `takeNew`.
    func takeHeld(_ row: any StoreRow, storedTarget: consuming PersistentIdentifier?)
}

extension ModelStore {
    package func readRows(_ request: StoreReadRequest, into sink: any StoreRowSink) throws {
        let toOne = sink.storedTargetProperty
        try readRows(request) { row in
            let identifier = row.identifier
            var storedTarget: PersistentIdentifier?
            if let toOne {
                // A row of a subclass numbers its properties its own way.
                let entity = row.entity
                let own = entity === request.entity ? toOne : entity.property(named: toOne.name) ?? toOne
                storedTarget = try row.target(of: own)
            }
            // Both handed over, not copied: an optional identifier's copy and release cost a call each, per row.
            if sink.holdsModel(of: identifier) {
                sink.takeHeld(row.retained(), storedTarget: consume storedTarget)
            } else {
                sink.takeNew(
                    consume identifier, entity: row.entity, slots: try row.slots(), storedTarget: consume storedTarget)
            }
        }
    }
}
