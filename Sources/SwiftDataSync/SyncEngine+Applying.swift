internal import Foundation
internal import SwiftData

extension SyncEngine {
    /// Applies fetched records, and the records held earlier, in one save; then records how far the server's
    /// change order was read.
    ///
    /// A record whose relationships point to a record this replica has not received is held (kept in the engine's
    /// file) and tried again with each later batch. A record of an entity this schema does not know is skipped;
    /// it is fetched again once the schema knows it.
    func apply(_ incoming: [SyncRecord], through newPosition: Int64, from transport: any SyncTransport) async throws {
        let held = try metadata.heldRecords()
        var candidates: [String: SyncRecord] = [:]
        var order: [String] = []
        for record in held + incoming {
            if candidates[record.recordName] == nil { order.append(record.recordName) }
            candidates[record.recordName] = record
        }
        let blocked = try blockedRecords(order, candidates)
        let assets = try await fetchAssets(
            of: order.filter { !blocked.contains($0) }.compactMap { candidates[$0] }, from: transport)
        // A save another context makes while the batch is being applied starts the apply again, so that the save
        // is read (and its fields compete by their times) before the apply writes over them.
        for _ in 0..<Self.applyAttempts {
            if try applyBatch(order, candidates, held: held, blocked: blocked, assets: assets, through: newPosition) {
                return
            }
        }
        throw SyncError.busyStore(attempts: Self.applyAttempts)
    }

    static let applyAttempts = 5

    /// One attempt at applying a batch, with nothing awaited in between: false, with nothing saved, when another
    /// context saved the synced store since the attempt read its history.
    private func applyBatch(
        _ order: [String], _ candidates: [String: SyncRecord], held: [SyncRecord], blocked: Set<String>,
        assets: [String: Data], through newPosition: Int64
    ) throws -> Bool {
        let context = makeContext()
        // Local changes first, so that they compete with the fetched ones by their own times.
        try stampLocalChanges(in: context, applied: nil)
        var applied = AppliedBatch()
        var deletions: [(name: String, entityName: String, timestamp: SyncTimestamp)] = []
        var inserted: [(name: String, entityName: String, model: any PersistentModel)] = []
        var fieldWrites: [(name: String, field: String, timestamp: SyncTimestamp, isMember: Bool?, target: String?)] =
            []
        var models: [String: any PersistentModel] = [:]
        var links: [(name: String, field: String, kind: SyncSchema.Field, value: SyncRecord.Field)] = []

        for name in order where !blocked.contains(name) {
            guard let record = candidates[name] else { continue }
            for timestamp in [record.deletion].compactMap({ $0 }) + record.fields.values.map(\.timestamp) {
                clock.receive(timestamp)
            }
            let known = try metadata.record(named: name)
            if let deletion = record.deletion {
                if let identifier = known?.identifier, let model = try context.storedModel(for: identifier) {
                    context.deleteModel(model)
                }
                if known?.deletion == nil || known?.isDeletionPending == true {
                    deletions.append((name, record.entityName, deletion))
                }
                continue
            }
            guard let entity = schema.entities[record.entityName], known?.deletion == nil else { continue }
            if let known, known.entityName != record.entityName {
                throw SyncError.unreadableRecord(
                    name, entity: record.entityName, field: "entity",
                    underlying: RecordMismatch(description: "the record was of \(known.entityName) before"))
            }
            let model: any PersistentModel
            if let identifier = known?.identifier {
                guard let stored = try context.storedModel(for: identifier) else { continue }
                model = stored
            } else {
                model = context.insertNewModel(of: entity.entity)
                inserted.append((name, entity.entity.name, model))
            }
            models[name] = model
            let local = known == nil ? [:] : try metadata.fields(of: name)
            for (field, value) in record.fields.sorted(by: { $0.key < $1.key }) {
                if let state = local[field], state.timestamp >= value.timestamp { continue }
                guard let kind = entity.field(named: field) else { continue }
                switch kind {
                case .attribute(let property):
                    let decoded = try decodeValue(
                        value.value, of: property, record: record, field: field, assets: assets)
                    let current = try? SyncValueCoding.encode(property.value(in: model), of: property)
                    if current != value.value || property.usesExternalStorage {
                        property.setAttribute(decoded, in: model)
                    }
                    fieldWrites.append((name, field, value.timestamp, nil, nil))
                    applied.fields.insert(name + "/" + field)
                case .toOne, .member:
                    links.append((name, field, kind, value))
                }
            }
        }
        // Links in the order they were written: of two models that took the same one-to-one partner, the later
        // keeps it.
        links.sort { $0.value.timestamp < $1.value.timestamp }
        var oneToOneLinks:
            [(
                key: String, model: any PersistentModel, property: Schema.Entity.Property,
                target: (any PersistentModel)?
            )] =
                []
        var displaced: [(name: String, field: String)] = []
        for link in links {
            guard let model = models[link.name] else { continue }
            switch link.kind {
            case .toOne(let property):
                let targetName = try decodeText(link.value.value, record: link.name, field: link.field)
                var target: (any PersistentModel)?
                if let targetName {
                    target = try resolve(targetName, models: models, in: context)
                    // A target of an entity this schema does not know: the link is applied once it does.
                    if target == nil, try !isDeleted(targetName, in: deletions) { continue }
                    try checkTarget(target, of: property, record: link.name, field: link.field)
                }
                if SyncSchema.isOneToOne(property), let target,
                    try partnerLinkIsLater(than: link.value.timestamp, of: target, for: model, property, models)
                {
                    // The target's partner took it later than this link was written: this model ends without a
                    // partner, and this replica sends that, so every replica ends with the later partner.
                    if !property.relatedModels(of: model).isEmpty { property.setRelated([], in: model) }
                    fieldWrites.append((link.name, link.field, link.value.timestamp, nil, targetName))
                    displaced.append((link.name, link.field))
                    continue
                }
                let current = property.relatedModels(of: model).first
                if current?.persistentModelID != target?.persistentModelID {
                    property.setRelated(target.map { [$0] } ?? [], in: model)
                }
                if SyncSchema.isOneToOne(property) {
                    oneToOneLinks.append((link.name + "/" + link.field, model, property, target))
                }
                fieldWrites.append((link.name, link.field, link.value.timestamp, nil, targetName))
            case .member(let property, let targetName):
                let isMember = link.value.value == "true"
                let target = try resolve(targetName, models: models, in: context)
                if target == nil, isMember, try !isDeleted(targetName, in: deletions) { continue }
                try checkTarget(target, of: property, record: link.name, field: link.field)
                if let target {
                    var members = property.relatedModels(of: model)
                    let index = members.firstIndex { $0.persistentModelID == target.persistentModelID }
                    if isMember, index == nil {
                        members.append(target)
                        property.setRelated(members, in: model)
                    } else if !isMember, let index {
                        members.remove(at: index)
                        property.setRelated(members, in: model)
                    }
                }
                fieldWrites.append((link.name, link.field, link.value.timestamp, isMember, nil))
            case .attribute:
                continue
            }
            applied.fields.insert(link.name + "/" + link.field)
        }

        // A one-to-one link a later one took over is not what the record says: it is sent as this replica's own
        // change, so every replica ends with the same partner.
        for link in oneToOneLinks where link.property.relatedModels(of: link.model).first !== link.target {
            applied.fields.remove(link.key)
        }
        if try unreadTransactions(in: context).contains(where: { $0.author != Self.author }) { return false }
        try context.save()
        if interruptsNextApplyAfterSaving {
            interruptsNextApplyAfterSaving = false
            throw Interrupted()
        }
        let insertedIdentifiers = inserted.map { ($0.name, $0.entityName, $0.model.persistentModelID) }
        try metadata.inTransaction {
            for (name, entityName, identifier) in insertedIdentifiers {
                try metadata.insertRecord(named: name, entityName: entityName, identifier: identifier)
            }
            for write in fieldWrites {
                try metadata.setField(
                    write.field, of: write.name, at: write.timestamp, isPending: false, isMember: write.isMember,
                    target: write.target)
            }
            for deletion in deletions {
                try metadata.markDeleted(
                    deletion.name, entityName: deletion.entityName, at: deletion.timestamp, isPending: false)
            }
            for (name, field) in displaced {
                try metadata.setField(field, of: name, at: clock.stamp(at: fixedTime?() ?? Date()), isPending: true)
            }
            for record in held where !blocked.contains(record.recordName) { try metadata.release(record.recordName) }
            for name in order where blocked.contains(name) {
                if let record = candidates[name] { try metadata.hold(record) }
            }
            try metadata.setState(StateKey.position, String(newPosition))
            try saveClock()
        }
        position = newPosition
        try stampLocalChanges(in: context, applied: applied)
        return true
    }

    // MARK: - Internal

    /// The records that point, through a relationship, to a record neither this replica nor the batch has (or
    /// to such a held record in turn).
    private func blockedRecords(_ order: [String], _ candidates: [String: SyncRecord]) throws -> Set<String> {
        var blocked = Set<String>()
        var knownHere: [String: Bool] = [:]
        func isKnownHere(_ name: String) throws -> Bool {
            if let known = knownHere[name] { return known }
            let known = try metadata.record(named: name) != nil
            knownHere[name] = known
            return known
        }
        var isChanged = true
        while isChanged {
            isChanged = false
            for name in order where !blocked.contains(name) {
                guard let record = candidates[name], record.deletion == nil,
                    let entity = schema.entities[record.entityName]
                else { continue }
                for target in try targets(of: record, entity) {
                    if try isKnownHere(target) { continue }
                    if candidates[target] != nil, !blocked.contains(target) { continue }
                    blocked.insert(name)
                    isChanged = true
                    break
                }
            }
        }
        return blocked
    }

    /// The record names a record's relationships point to.
    private func targets(of record: SyncRecord, _ entity: SyncSchema.Entity) throws -> [String] {
        var targets: [String] = []
        for (field, value) in record.fields {
            switch entity.field(named: field) {
            case .toOne?:
                if let target = try decodeText(value.value, record: record.recordName, field: field) {
                    targets.append(target)
                }
            case .member(_, let target)? where value.value == "true":
                targets.append(target)
            default:
                continue
            }
        }
        return targets
    }

    /// The model a record name stands for: one of the batch, or one in the store; nil for a deleted record.
    private func resolve(_ name: String, models: [String: any PersistentModel], in context: ModelContext) throws
        -> (any PersistentModel)?
    {
        if let model = models[name] { return model }
        guard let identifier = try metadata.record(named: name)?.identifier else { return nil }
        return try context.storedModel(for: identifier)
    }

    /// True when a one-to-one target's current partner (another model than `model`) took it with a write later
    /// than `timestamp`.
    private func partnerLinkIsLater(
        than timestamp: SyncTimestamp, of target: any PersistentModel, for model: any PersistentModel,
        _ property: Schema.Entity.Property, _ models: [String: any PersistentModel]
    ) throws -> Bool {
        guard let inverse = property.relationshipInfo?.inverse,
            let partner = inverse.relatedModels(of: target).first, partner !== model
        else { return false }
        let partnerName =
            try metadata.recordName(of: partner.persistentModelID)
            ?? models.first(where: { $0.value === partner })?.key
        guard let partnerName, let state = try metadata.fields(of: partnerName)[property.name] else { return false }
        return state.timestamp > timestamp
    }

    /// True when this replica knows that a record was deleted, or the batch deletes it.
    private func isDeleted(
        _ name: String, in deletions: [(name: String, entityName: String, timestamp: SyncTimestamp)]
    ) throws -> Bool {
        try metadata.record(named: name)?.deletion != nil || deletions.contains { $0.name == name }
    }

    /// Checks that a related model is of the relationship's destination: a record of another replica naming a
    /// model of another entity would otherwise stop the program when linked.
    ///
    /// - Throws: `SyncError.unreadableRecord`.
    private func checkTarget(
        _ target: (any PersistentModel)?, of property: Schema.Entity.Property, record: String, field: String
    ) throws {
        guard let target, let destination = property.relationshipInfo?.destination else { return }
        let entityName = target.storage.entity.name
        guard !destination.hierarchyNames.contains(entityName) else { return }
        throw SyncError.unreadableRecord(
            record, entity: "", field: field,
            underlying: RecordMismatch(description: "it names a \(entityName), not a \(destination.name)"))
    }

    /// Why a record does not fit the models it names.
    struct RecordMismatch: Error, CustomStringConvertible {
        let description: String
    }

    /// The external-storage values the records hold, fetched from the server in one request.
    private func fetchAssets(of records: [SyncRecord], from transport: any SyncTransport) async throws
        -> [String: Data]
    {
        var names = Set<String>()
        for record in records {
            guard let entity = schema.entities[record.entityName] else { continue }
            for (field, value) in record.fields {
                guard case .attribute(let property)? = entity.field(named: field), property.usesExternalStorage,
                    let asset = try decodeText(value.value, record: record.recordName, field: field)
                else { continue }
                names.insert(asset)
            }
        }
        guard !names.isEmpty else { return [:] }
        do {
            return try await transport.fetchAssets(named: names)
        } catch {
            await dropTransport()
            throw SyncError.offline(error)
        }
    }

    private func decodeValue(
        _ value: String, of property: Schema.Entity.Property, record: SyncRecord, field: String,
        assets: [String: Data]
    ) throws -> Any {
        do {
            var json = Data(value.utf8)
            if property.usesExternalStorage, let asset = try SyncValueCoding.decodeText(value) {
                guard let data = assets[asset] else {
                    throw SyncError.unreadableRecord(
                        record.recordName, entity: record.entityName, field: field, underlying: nil)
                }
                json = data
            }
            return try SyncValueCoding.decode(json, of: property)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.unreadableRecord(
                record.recordName, entity: record.entityName, field: field, underlying: error)
        }
    }

    private func decodeText(_ value: String, record: String, field: String) throws -> String? {
        do {
            return try SyncValueCoding.decodeText(value)
        } catch {
            throw SyncError.unreadableRecord(record, entity: "", field: field, underlying: error)
        }
    }
}
