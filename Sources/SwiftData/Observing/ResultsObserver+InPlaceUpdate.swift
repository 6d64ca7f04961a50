extension ResultsObserver {
    /// The results with the named models moved in, out or into place: each is evaluated with the predicate and
    /// placed by the sort, the others keep their order.
    ///
    /// - Throws: what reading a named model, or evaluating the predicate, throws; the caller fetches instead.
    func modelsUpdated(_ changedModels: [any PersistentModel], _ identifiers: Set<PersistentIdentifier>) throws
        -> [Element]
    {
        var named = Set<ObjectIdentifier>()
        var candidates: [Element] = []
        func consider(_ model: any PersistentModel) {
            guard named.insert(ObjectIdentifier(model)).inserted else { return }
            if let element = model as? Element, element.storage.context === modelContext, !element.storage.isDeleted,
                modelContext.heldAfterDeletionElsewhere.isEmpty
                    || !modelContext.heldAfterDeletionElsewhere.contains(element.storage.identifier)
            {
                candidates.append(element)
            }
        }
        for model in changedModels { consider(model) }
        var gone = modelContext.heldAfterDeletionElsewhere
        for identifier in identifiers where !gone.contains(identifier) {
            if let model = try modelContext.resolveModel(for: identifier) {
                consider(model)
            } else {
                gone.insert(identifier)
            }
        }
        var updated = models.filter { model in
            let storage = model.storage
            return !named.contains(ObjectIdentifier(model)) && storage.context === modelContext && !storage.isDeleted
                && (gone.isEmpty || !gone.contains(storage.identifier))
        }
        let predicate = descriptor.predicate
        let matches = try candidates.filter { try predicate?.evaluate($0) ?? true }
        guard !matches.isEmpty else { return updated }
        // A fetch lists unsaved models after stored ones, in the order the context holds them.
        var insertionOrder: [ObjectIdentifier: Int] = [:]
        if matches.contains(where: { $0.storage.identifier.isTemporary }) {
            for (position, model) in modelContext.inserted.models.enumerated() {
                insertionOrder[ObjectIdentifier(model)] = position
            }
        }
        for candidate in matches {
            updated.insert(candidate, at: insertionPoint(of: candidate, in: updated, insertionOrder))
        }
        return updated
    }

    /// Where a model goes in sorted results: after every model that precedes it.
    private func insertionPoint(of model: Element, in sorted: [Element], _ insertionOrder: [ObjectIdentifier: Int])
        -> Int
    {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(sorted[middle], model, insertionOrder) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The fetch's order: the sort descriptors, then the store's order of rows (by key), models not saved yet last
    /// in the order the context holds them (`insertionOrder`), as a fetch orders ties.
    private func precedes(_ lhs: Element, _ rhs: Element, _ insertionOrder: [ObjectIdentifier: Int]) -> Bool {
        for sort in descriptor.sortBy {
            switch sort.compare(lhs, rhs) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        switch (lhs.storage.identifier.id.key, rhs.storage.identifier.id.key) {
        case (.temporary, .temporary):
            return (insertionOrder[ObjectIdentifier(lhs)] ?? .max) < (insertionOrder[ObjectIdentifier(rhs)] ?? .max)
        case (.temporary, _): return false
        case (_, .temporary): return true
        case (let left, let right): return left < right
        }
    }
}
