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
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        if let token = historyToken { descriptor.predicate = #Predicate { $0.token > token } }
        let transactions = try context.fetchHistory(descriptor).sorted {
            $0.transactionIdentifier < $1.transactionIdentifier
        }
        guard let last = transactions.last else { return }
        var leftovers: [PersistentIdentifier] = []
        try metadata.inTransaction {
            for transaction in transactions {
                try stamp(transaction, in: context, applied: applied, leftovers: &leftovers)
            }
            let token = String(decoding: try JSONEncoder().encode(last.token), as: UTF8.self)
            try metadata.setState(StateKey.historyToken, token)
            try saveClock()
        }
        historyToken = last.token
        if !leftovers.isEmpty { try deleteLeftovers(leftovers, in: context) }
    }

    private func stamp(
        _ transaction: DefaultHistoryTransaction, in context: ModelContext, applied: AppliedBatch?,
        leftovers: inout [PersistentIdentifier]
    ) throws {
        let isOwn = transaction.author == Self.author
        let timestamp = clock.stamp(at: fixedTime?() ?? transaction.timestamp)
        for change in transaction.changes {
            let identifier = change.changedPersistentIdentifier
            guard let entity = schema.entities[identifier.entityName] else { continue }
            switch change {
            case .insert:
                guard try metadata.recordName(of: identifier) == nil else { continue }
                if isOwn {
                    leftovers.append(identifier)
                    continue
                }
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
                    try stamp(property, of: model, named: name, entity: entity, at: timestamp, in: context) {
                        !(isOwn && applied?.fields.contains(name + "/" + $0) == true)
                    }
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
    /// fetched records link those again.
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
            try stamp(property, of: model, named: name, entity: entity, at: timestamp, in: context) { _ in true }
        }
        return name
    }

    /// Records a synced property's change: an attribute or to-one relationship as one field; a to-many
    /// relationship as the members that joined or left since the last record of it. `includes` filters fields.
    private func stamp(
        _ property: Schema.Entity.Property, of model: any PersistentModel, named name: String,
        entity: SyncSchema.Entity, at timestamp: SyncTimestamp, in context: ModelContext,
        includes: (String) -> Bool
    ) throws {
        switch entity.field(named: property.name) {
        case .attribute?, .toOne?:
            guard includes(property.name) else { return }
            try metadata.setField(property.name, of: name, at: timestamp, isPending: true)
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
        let newest = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).max {
            $0.transactionIdentifier < $1.transactionIdentifier
        }
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
