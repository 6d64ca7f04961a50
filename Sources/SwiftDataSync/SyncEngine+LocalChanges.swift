internal import Foundation
internal import SwiftData

extension SyncEngine {
    /// What one apply of fetched records changed, so that reading its own save back from history tells what it
    /// applied from what the store did in consequence (a cascade, a link taken from another model).
    struct AppliedBatch {
        /// The fields the apply wrote, as `recordName/field`.
        var fields: Set<String> = []
    }

    /// Records, for each transaction in history since the last one read, which fields of which models changed and
    /// when, as writes the server does not have yet; on the first run, every model already in the store.
    ///
    /// A transaction of the engine's own (author ``author``) is the apply `applied` describes: of it, only what
    /// the apply did not write itself is recorded (a cascade's deletions, links the store changed). Without
    /// `applied`, the engine's own transactions are what an apply that did not finish left behind: models it
    /// inserted are deleted again, as their records are fetched again.
    func stampLocalChanges(in context: ModelContext, applied: AppliedBatch?) throws {
        if historyToken == nil, try metadata.state(StateKey.historyToken) == nil {
            try stampExistingModels(in: context)
        }
        var transactions = try unreadTransactions(in: context)
        if applied == nil {
            // Models an apply inserted and did not record go first, in a save of their own, so that a process
            // ending meanwhile finds them again.
            var leftovers: [PersistentIdentifier] = []
            for transaction in transactions where transaction.author == Self.author {
                for case .insert(let insert) in transaction.changes
                where try metadata.recordName(of: insert.changedPersistentIdentifier) == nil {
                    leftovers.append(insert.changedPersistentIdentifier)
                }
            }
            if !leftovers.isEmpty {
                try deleteLeftovers(leftovers, in: context)
                transactions = try unreadTransactions(in: context)
            }
        }
        guard let last = transactions.last else { return }
        try metadata.inTransaction {
            for transaction in transactions { try stamp(transaction, in: context, applied: applied) }
            let token = String(decoding: try JSONEncoder().encode(last.token), as: UTF8.self)
            try metadata.setState(StateKey.historyToken, token)
            try saveClock()
        }
        historyToken = last.token
    }

    /// The synced store's transactions after the last one read, oldest first.
    func unreadTransactions(in context: ModelContext) throws -> [DefaultHistoryTransaction] {
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        if let token = historyToken { descriptor.predicate = #Predicate { $0.token > token } }
        return try context.fetchHistory(descriptor).filter { $0.storeIdentifier == storeIdentifier }.sorted {
            $0.transactionIdentifier < $1.transactionIdentifier
        }
    }

    private func stamp(
        _ transaction: DefaultHistoryTransaction, in context: ModelContext, applied: AppliedBatch?
    ) throws {
        let isOwn = transaction.author == Self.author
        let timestamp = clock.stamp(at: fixedTime?() ?? transaction.timestamp)
        var deletedHere = Set<String>()
        for case .delete(let delete) in transaction.changes {
            if let name = try metadata.recordName(of: delete.changedPersistentIdentifier) { deletedHere.insert(name) }
        }
        for change in transaction.changes {
            let identifier = change.changedPersistentIdentifier
            guard let entity = schema.entities[identifier.entityName] else { continue }
            switch change {
            case .insert:
                guard try metadata.recordName(of: identifier) == nil, !isOwn else { continue }
                guard let model = try context.storedModel(for: identifier) else { continue }
                _ = try recordName(of: model, in: context, stampingAt: timestamp)
            case .update(let update):
                guard !isOwn || applied != nil, let model = try context.storedModel(for: identifier) else { continue }
                guard let name = try metadata.recordName(of: identifier) else {
                    _ = try recordName(of: model, in: context, stampingAt: timestamp)
                    continue
                }
                let keyPaths = Self.updatedKeyPaths(update)
                let properties = entity.entity.persistedProperties.filter { property in
                    keyPaths.contains { $0 == property.keyPath }
                }
                for property in keyPaths.count == properties.count ? properties : entity.entity.persistedProperties {
                    // Of an apply's own changes, only links it displaced are sent: a one-to-one link another
                    // model took over. What else it did in consequence (a link to a deleted model nullified),
                    // every replica does alike, and sending it would override later writes of other replicas.
                    if isOwn, !SyncSchema.isOneToOne(property) { continue }
                    try stamp(
                        property, of: model, named: name, entity: entity, at: timestamp, in: context,
                        deleted: deletedHere
                    ) { !(isOwn && applied?.fields.contains(name + "/" + $0) == true) }
                }
            case .delete:
                guard let name = try metadata.recordName(of: identifier) else { continue }
                try metadata.markDeleted(name, entityName: entity.entity.name, at: timestamp, isPending: true)
            }
        }
    }

    /// Deletes the models an apply inserted and did not record: their records are fetched and inserted again.
    ///
    /// Their links are taken away first, so that deleting them cascades to no model that has a record: the
    /// fetched records link those again. The save is the engine's own, so none of it is sent.
    private func deleteLeftovers(_ identifiers: [PersistentIdentifier], in context: ModelContext) throws {
        let models = try identifiers.compactMap { try context.storedModel(for: $0) }
        for model in models {
            for property in model.storage.entity.persistedProperties where property.isRelationship {
                if !property.relatedModels(of: model).isEmpty { property.setRelated([], in: model) }
            }
        }
        for model in models { context.deleteModel(model) }
        try context.save()
    }

    /// The record name of a model, giving it one, and recording every synced field as written at `timestamp`, when
    /// it has none yet.
    func recordName(
        of model: any PersistentModel, in context: ModelContext, stampingAt timestamp: SyncTimestamp
    ) throws -> String? {
        let identifier = model.persistentModelID
        if let name = try metadata.recordName(of: identifier) { return name }
        guard !identifier.isTemporary, let entity = schema.entities[identifier.entityName] else { return nil }
        let name = UUID().uuidString
        try metadata.insertRecord(named: name, entityName: entity.entity.name, identifier: identifier)
        for property in entity.attributes + entity.toOne + entity.toMany {
            try stamp(property, of: model, named: name, entity: entity, at: timestamp, in: context, deleted: []) {
                _ in true
            }
        }
        return name
    }

    /// Records a synced property's change: an attribute or to-one relationship as one field; a to-many
    /// relationship as the members that joined or left since the last record of it. `includes` filters fields.
    ///
    /// A to-one relationship that became nil because the model it pointed to was deleted (`deleted` names the
    /// records the transaction deleted) is not recorded: every replica that applies the deletion clears the link
    /// alike, and recording it would override a concurrent move of the link made elsewhere.
    private func stamp(
        _ property: Schema.Entity.Property, of model: any PersistentModel, named name: String,
        entity: SyncSchema.Entity, at timestamp: SyncTimestamp, in context: ModelContext, deleted: Set<String>,
        includes: (String) -> Bool
    ) throws {
        switch entity.field(named: property.name) {
        case .attribute?:
            guard includes(property.name) else { return }
            try metadata.setField(property.name, of: name, at: timestamp, isPending: true)
        case .toOne?:
            guard includes(property.name) else { return }
            var targetName: String?
            if let target = property.relatedModels(of: model).first {
                targetName = try recordName(of: target, in: context, stampingAt: timestamp)
            } else if let previous = try metadata.fields(of: name)[property.name]?.target,
                try deleted.contains(previous) || metadata.record(named: previous)?.deletion != nil
            {
                return
            }
            try metadata.setField(property.name, of: name, at: timestamp, isPending: true, target: targetName)
        case .member?, nil:
            guard entity.toMany.contains(where: { $0 === property }) else { return }
            let known = try metadata.fields(of: name).filter { $0.key.hasPrefix(property.name + "/") }
            var current = Set<String>()
            for member in property.relatedModels(of: model) {
                guard let memberName = try recordName(of: member, in: context, stampingAt: timestamp) else { continue }
                current.insert(property.name + "/" + memberName)
            }
            for field in current where known[field]?.isMember != true && includes(field) {
                try metadata.setField(field, of: name, at: timestamp, isPending: true, isMember: true)
            }
            for (field, state) in known where state.isMember == true && !current.contains(field) && includes(field) {
                try metadata.setField(field, of: name, at: timestamp, isPending: true, isMember: false)
            }
        }
    }

    /// On the first run: every model in the store, with all its fields, as changes to send.
    private func stampExistingModels(in context: ModelContext) throws {
        // History read from here on is read from its newest transaction; what came before is in the models.
        let newest = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
            .filter { $0.storeIdentifier == storeIdentifier }
            .max { $0.transactionIdentifier < $1.transactionIdentifier }
        try metadata.inTransaction {
            let timestamp = clock.stamp(at: fixedTime?() ?? Date())
            var seen = Set<PersistentIdentifier>()
            for entity in schema.entities.values.sorted(by: { $0.entity.name < $1.entity.name }) {
                guard let modelType = entity.entity.modelType else { continue }
                for model in try Self.fetchAll(modelType, in: context)
                where seen.insert(model.persistentModelID).inserted {
                    _ = try recordName(of: model, in: context, stampingAt: timestamp)
                }
            }
            let token = newest.map { String(decoding: (try? JSONEncoder().encode($0.token)) ?? Data(), as: UTF8.self) }
            try metadata.setState(StateKey.historyToken, token ?? "null")
            try saveClock()
            historyToken = newest?.token
        }
    }

    private static func fetchAll<Model: PersistentModel>(_ type: Model.Type, in context: ModelContext) throws
        -> [any PersistentModel]
    {
        try context.fetch(FetchDescriptor<Model>())
    }

    static func updatedKeyPaths(_ update: any HistoryUpdate) -> [AnyKeyPath] {
        func open<Update: HistoryUpdate>(_ update: Update) -> [AnyKeyPath] {
            update.updatedAttributes.map { $0 as AnyKeyPath }
        }
        return open(update)
    }
}
