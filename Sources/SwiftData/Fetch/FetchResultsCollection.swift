/// The results of a batched fetch: a collection that loads its models a batch at a time as you access them.
///
/// Only the identifiers of the matching models are read up front; each batch of models is read when one of its
/// elements is first accessed, and only the most recent batches are kept, so iterating over a large result runs
/// in bounded memory. Each position holds the model of the identifier read up front, even when its row is deleted
/// before its batch is read (see `ModelContext.fetch(_:batchSize:)` for what such a model reads).
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    /// The position of an element.
    public typealias Index = Int

    let storage: FetchResultsStorage<Element>

    /// The position of the first element: 0.
    public var startIndex: Int { 0 }
    /// The position after the last element.
    public var endIndex: Int { storage.count }

    /// The element at a position, loading its batch when needed.
    public subscript(position: Int) -> Element {
        storage.element(at: position)
    }
}

extension FetchResultsCollection {
    /// A collection of models already loaded, as a live query holds them.
    init(loaded models: [Element]) {
        self.init(storage: FetchResultsStorage(loaded: models))
    }
}

/// Loads and caches the batches of a `FetchResultsCollection`.
final class FetchResultsStorage<Element> {
    let count: Int
    private let batchSize: Int
    private let loadBatch: (Range<Int>) -> [Element]
    private var cached: [(batch: Int, elements: [Element])] = []
    private let cachedBatchLimit = 2

    /// Every element, when all were loaded up front.
    let loaded: [Element]?

    init(count: Int, batchSize: Int, loadBatch: @escaping (Range<Int>) -> [Element]) {
        self.count = count
        self.batchSize = max(1, batchSize)
        self.loadBatch = loadBatch
        self.loaded = nil
    }

    init(loaded: [Element]) {
        self.count = loaded.count
        self.batchSize = max(1, loaded.count)
        self.loadBatch = { Array(loaded[$0]) }
        self.loaded = loaded
    }

    func element(at position: Int) -> Element {
        if let loaded { return loaded[position] }
        precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
        let batch = position / batchSize
        if let hit = cached.first(where: { $0.batch == batch }) { return hit.elements[position % batchSize] }
        let start = batch * batchSize
        let elements = loadBatch(start..<min(count, start + batchSize))
        cached.append((batch, elements))
        if cached.count > cachedBatchLimit { cached.removeFirst() }
        return elements[position % batchSize]
    }
}

extension ModelContext {
    // MARK: - Fetching in Batches

    /// The models that match a fetch descriptor, loaded in batches of `batchSize` as the collection is accessed.
    ///
    /// Unlike Apple's, this works with `includePendingChanges`: the matching identifiers, unsaved models included,
    /// are computed up front, and the collection keeps the unsaved models it lists.
    ///
    /// The collection keeps its context alive, as Core Data's batched results keep theirs, and each position
    /// always holds the model of the identifier read up front. A row deleted after that (by another context or
    /// another process) yields the model this context holds of it, with the values it knows; when the context
    /// holds none, a model that reads as one deleted elsewhere: `isDeleted` is true, it has no context, and each
    /// attribute reads its placeholder (its declared default, else `nil` for an optional, else the empty value of
    /// its type: 0, `false`, `""`), and each relationship no model. What has no placeholder is read together with
    /// the identifiers, and such a model reads it as it was then: an attribute whose type has no empty value (an
    /// enumeration neither `CaseIterable` nor with a case for an empty raw value, a transformed value), and the
    /// target of a non-optional to-one relationship. That target is read through the container, in no context,
    /// when first accessed; when its row is gone too, it is a model that reads as deleted in the same way, whose
    /// own such values were read up front as well (in the same snapshot of the store). The model of a subclass's row
    /// is of that subclass. The models of the collection that the context holds fall back on those targets too,
    /// should a target's row be gone when first read. For an entity whose attributes all have placeholders, with
    /// no non-optional to-one and no subclass, the fetch reads identifiers alone.
    ///
    /// A batch whose rows cannot be read (a store error) yields models that read their values from the store on
    /// first access, as after a fetch with `propertiesToFetch`, except for the values read up front, which they
    /// hold from the start.
    ///
    /// - Throws: like `fetch(_:)`; also `SwiftDataError.loadIssueModelContainer` when a value read up front does not
    ///   fit its type.
    public func fetch<T>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T>
    where T: PersistentModel {
        applyExternalChanges()
        let (identifiers, lastKnown) = try FetchPlan(descriptor: descriptor, context: self)
            .identifiersWithLastKnownValues()
        let unsaved = unsavedModels(listedIn: identifiers)
        // `self` is held strongly: models hold their context weakly, and the collection must outlive neither.
        let storage = FetchResultsStorage<T>(count: identifiers.count, batchSize: batchSize) { range in
            self.models(for: identifiers[range], unsaved: unsaved, lastKnown: lastKnown)
        }
        return FetchResultsCollection(storage: storage)
    }

    /// The identifiers of the models that match a fetch descriptor, as a collection.
    ///
    /// - Throws: like `fetch(_:)`.
    public func fetchIdentifiers<T>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
        -> FetchResultsCollection<PersistentIdentifier>
    where T: PersistentModel {
        let identifiers = try fetchIdentifiers(descriptor)
        let storage = FetchResultsStorage<PersistentIdentifier>(count: identifiers.count, batchSize: batchSize) {
            Array(identifiers[$0])
        }
        return FetchResultsCollection(storage: storage)
    }

    // MARK: - Internal

    /// The models with the given identifiers (at their positions in the fetch), one per identifier, in order: the
    /// unsaved and registered ones as they are, the others read in one query per entity. An identifier whose row
    /// is gone gets a model of a vanished row, and one whose row could not be read a model that loads on first
    /// access, both given what `lastKnown` kept of the row (see `fetch(_:batchSize:)`), so that no position ever
    /// holds another row's model and no property is left without a value.
    func models<T: PersistentModel>(
        for identifiers: ArraySlice<PersistentIdentifier>, unsaved: [PersistentIdentifier: any PersistentModel],
        lastKnown: LastKnownValues
    ) -> [T] {
        var byIdentifier: [PersistentIdentifier: any PersistentModel] = [:]
        var missing: [String: [(identifier: PersistentIdentifier, position: Int)]] = [:]
        for (position, identifier) in zip(identifiers.indices, identifiers) {
            if let model = unsaved[identifier] ?? registered[identifier]?.model {
                byIdentifier[identifier] = model
            } else if !identifier.isTemporary {
                missing[identifier.entityName, default: []].append((identifier, position))
            }
        }
        for (entityName, wanted) in missing {
            guard let entity = container.schema.modelEntitiesByName[entityName] else { continue }
            do {
                let found = try modelsByIdentifier(of: entity, identifiers: wanted.map(\.identifier))
                for (identifier, _) in wanted {
                    // A row deleted without loading its model in this context comes back as a deleted model.
                    byIdentifier[identifier] = found[identifier] ?? registered[identifier]?.model
                }
            } catch {
                for (identifier, position) in wanted {
                    // The row's own class, when a hierarchy's table was read.
                    let kept = lastKnown.row(at: position, identifier: identifier)
                    byIdentifier[identifier] = unloadedModel(
                        of: kept?.entity ?? entity, identifier: kept?.identifier ?? identifier,
                        kept: kept.map(lastKnown.keptSlots) ?? [:])
                }
            }
        }
        for model in byIdentifier.values { lastKnown.backTargets(of: model.storage) }
        return zip(identifiers.indices, identifiers).map { position, identifier in
            let model = byIdentifier[identifier] ?? lastKnown.vanishedModel(for: identifier, at: position)
            guard let model = model as? T else {
                // Unreachable: the identifiers were read by a fetch of `T`.
                preconditionFailure("\(identifier) is not the identifier of a \(T.self)")
            }
            return model
        }
    }
}
