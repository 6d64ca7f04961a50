extension ResultsObserver: ChangeArrivalReceiver {}

extension ResultsObserver: LocalChangeObserver {
    func contextDidChange(_ change: LocalChange) {
        switch change {
        case .inserted(let storage), .deleted(let storage), .refreshed(let storage):
            noteLocalChange(of: storage, property: nil)
        case .changed(let storage, let slot):
            noteLocalChange(of: storage, property: storage.entity.persistedProperties[slot].name)
        case .rowsDeleted(let entity):
            guard descriptor.includePendingChanges,
                routing.reads.isAffected(byChangeIn: entity.tableName, property: nil)
            else { return }
            locallyNeedsRefetch = true
            scheduleLocalUpdate()
        case .rolledBack:
            guard descriptor.includePendingChanges else { return }
            locallyNeedsRefetch = true
            scheduleLocalUpdate()
        }
    }

    /// Notes a model's change in memory, when the results see pending changes and the change can move the model in
    /// or out of them or within them; a change of another entity that the predicate reads asks for a refetch.
    private func noteLocalChange(of storage: ModelStorage, property: String?) {
        guard descriptor.includePendingChanges else { return }
        let table = storage.entity.tableName
        let reads = routing.reads
        guard reads.isAffected(byChangeIn: table, property: property) else {
            counts.changesIgnored += 1
            return
        }
        if table == reads.resultTable {
            // The model, not its storage: a storage lives exactly as long as its model, and refers to it unretained.
            if !locallyNeedsRefetch, let model = storage.model {
                locallyChanged[ObjectIdentifier(model)] = model
                if locallyChanged.count > ObservedChanges.identifierLimit {
                    // A refetch costs less than placing so many models one by one, and the models need not be kept.
                    locallyChanged = [:]
                    locallyNeedsRefetch = true
                }
            }
        } else {
            locallyNeedsRefetch = true
        }
        scheduleLocalUpdate()
    }

    private func scheduleLocalUpdate() {
        target?.changesArrived(
            ObservedChanges.Arrival(startsUpdate: routing.changes.schedule(), changesResults: true))
    }
}
