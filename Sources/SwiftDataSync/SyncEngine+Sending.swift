internal import Foundation
internal import SwiftData

extension SyncEngine {
    /// Records to send, and what sending them makes no longer pending.
    struct OutgoingBatch {
        var records: [SyncRecord] = []
        var assets: [String: Data] = [:]
        var sentFields: [(record: String, field: String, timestamp: SyncTimestamp)] = []
        var sentDeletions: [String] = []
    }

    /// The records of pending writes, with each field's current value.
    ///
    /// A model that is gone with no deletion recorded yet sends nothing: its deletion is in history and is
    /// recorded by the next read of it. A to-one relationship to a model with no record name yet stays pending.
    func pendingRecords(_ names: [String], in context: ModelContext) throws -> OutgoingBatch {
        var batch = OutgoingBatch()
        for name in names {
            guard let record = try metadata.record(named: name) else { continue }
            if let deletion = record.deletion {
                guard record.isDeletionPending else { continue }
                batch.records.append(
                    SyncRecord(recordName: name, entityName: record.entityName, fields: [:], deletion: deletion))
                batch.sentDeletions.append(name)
                continue
            }
            guard let identifier = record.identifier, let entity = schema.entities[record.entityName],
                let model = try context.storedModel(for: identifier)
            else { continue }
            var fields: [String: SyncRecord.Field] = [:]
            for (field, state) in try metadata.fields(of: name) where state.isPending {
                let value: String
                switch entity.field(named: field) {
                case .attribute(let property)?:
                    let json = try SyncValueCoding.encode(property.value(in: model), of: property)
                    if property.usesExternalStorage, json != "null" {
                        let asset = name + "/" + field + "/" + state.timestamp.description
                        batch.assets[asset] = Data(json.utf8)
                        value = SyncValueCoding.encode(text: asset)
                    } else {
                        value = json
                    }
                case .toOne(let property)?:
                    if let target = property.relatedModels(of: model).first {
                        guard let targetName = try metadata.recordName(of: target.persistentModelID) else { continue }
                        value = SyncValueCoding.encode(text: targetName)
                    } else {
                        value = "null"
                    }
                case .member?:
                    value = state.isMember == true ? "true" : "false"
                case nil:
                    continue
                }
                fields[field] = SyncRecord.Field(value: value, timestamp: state.timestamp)
                batch.sentFields.append((name, field, state.timestamp))
            }
            guard !fields.isEmpty else { continue }
            batch.records.append(SyncRecord(recordName: name, entityName: record.entityName, fields: fields))
        }
        return batch
    }
}
