/// The results of a batched fetch: a collection that loads its models a batch at a time as you access them.
///
/// Only the identifiers of the matching models are read up front; each batch of models is read when one of its
/// elements is first accessed, and only the most recent batches are kept, so iterating over a large result runs
/// in bounded memory.
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

/// Loads and caches the batches of a `FetchResultsCollection`.
final class FetchResultsStorage<Element> {
    let count: Int
    private let batchSize: Int
    private let loadBatch: (Range<Int>) -> [Element]
    private var cached: [(batch: Int, elements: [Element])] = []
    private let cachedBatchLimit = 2

    init(count: Int, batchSize: Int, loadBatch: @escaping (Range<Int>) -> [Element]) {
        self.count = count
        self.batchSize = max(1, batchSize)
        self.loadBatch = loadBatch
    }

    func element(at position: Int) -> Element {
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
    /// are computed up front.
    ///
    /// - Throws: like `fetch(_:)`.
    public func fetch<T>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T>
    where T: PersistentModel {
        let identifiers = try fetchIdentifiers(descriptor)
        let storage = FetchResultsStorage<T>(count: identifiers.count, batchSize: batchSize) { [weak self] range in
            guard let self else { preconditionFailure("the ModelContext of a FetchResultsCollection was released") }
            return self.models(for: Array(identifiers[range]))
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

    /// The models with the given identifiers, in order: registered ones as they are, the others read in one query
    /// per entity.
    func models<T: PersistentModel>(for identifiers: [PersistentIdentifier]) -> [T] {
        var byIdentifier: [PersistentIdentifier: any PersistentModel] = [:]
        var missing: [String: [Int64]] = [:]
        // Inserted models are not in the registry; their identifiers are temporary.
        let inserted =
            identifiers.contains(where: \.isTemporary)
            ? Dictionary(
                self.inserted.models.map { ($0.storage.identifier, $0) }, uniquingKeysWith: { first, _ in first })
            : [:]
        for identifier in identifiers {
            if let model = registered[identifier]?.model ?? inserted[identifier] {
                byIdentifier[identifier] = model
            } else if let key = identifier.primaryKey {
                missing[identifier.entityName, default: []].append(key)
            }
        }
        for (entityName, keys) in missing {
            guard let entity = container.schema.entitiesByName[entityName] else { continue }
            for model in (try? models(of: entity, primaryKeys: keys)) ?? [] {
                byIdentifier[model.persistentModelID] = model
            }
        }
        return identifiers.compactMap { byIdentifier[$0] as? T }
    }
}
