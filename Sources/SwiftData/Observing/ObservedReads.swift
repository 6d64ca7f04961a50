internal import Foundation

/// What a live query's results depend on: the properties its predicate, sort and sections read, by the table that
/// stores them (one per inheritance hierarchy).
///
/// A change the reads do not cover cannot change which models the results hold or their order, so the query does
/// not look at it. A predicate is a tree of expression values, walked by reflection as its node types are generic
/// and open-ended; a key path it holds is a property it reads. A key path SwiftData cannot place (a computed
/// property, a path into a composite attribute) counts as reading every property of its model.
struct ObservedReads: Sendable {
    /// The properties read of one table.
    enum Read: Sendable, Equatable {
        case all
        case properties(Set<String>)
    }

    /// The table of the results' models.
    let resultTable: String
    /// True when a key path SwiftData cannot place (a computed property, a path through a relationship or into a
    /// composite attribute) or a predicate too deep to walk may read anything: every change counts, and changes
    /// of other tables need a refetch.
    private(set) var readsEverything = false
    /// What is read, by table; a table not listed is not read at all.
    private(set) var tables: [String: Read] = [:]

    init<Element: PersistentModel>(
        _ descriptor: FetchDescriptor<Element>, sectionBy: PartialKeyPath<Element>?, of _: Element.Type
    ) {
        let entity = Schema.Entity.of(Element.self)
        resultTable = entity.tableName
        tables[resultTable] = .properties([])
        if let predicate = descriptor.predicate {
            if !collect(Mirror(reflecting: predicate.expression), depth: 0) { readsEverything = true }
        }
        for sort in descriptor.sortBy {
            if let keyPath = sort.keyPath { add(keyPath) } else { readsEverything = true }
        }
        if let sectionBy { add(sectionBy) }
    }

    /// True when a change of these properties of a model in `table` can change the results: of the results' own
    /// table, when a property is read; of another table, when it is read through a relationship. `nil` properties
    /// stand for all of them (an insert, a delete, or an update that did not say).
    func isAffected(byChangeIn table: String, properties: Set<String>?) -> Bool {
        if readsEverything { return true }
        switch tables[table] {
        case nil: return false
        case .all: return true
        case .properties(let read):
            guard let properties else { return true }
            return !read.isDisjoint(with: properties)
        }
    }

    /// `isAffected(byChangeIn:properties:)` for one property, or for all of them when `property` is nil.
    func isAffected(byChangeIn table: String, property: String?) -> Bool {
        if readsEverything { return true }
        switch tables[table] {
        case nil: return false
        case .all: return true
        case .properties(let read): return property.map(read.contains) ?? true
        }
    }

    /// Walks an expression tree, adding every key path in it. Returns false when the tree was too deep to walk
    /// whole.
    private mutating func collect(_ mirror: Mirror, depth: Int) -> Bool {
        // A captured object is not walked: its stored properties are no part of the predicate's expressions.
        guard depth < 64 else { return false }
        guard mirror.displayStyle != .class else { return true }
        for child in mirror.children {
            if let keyPath = child.value as? AnyKeyPath {
                add(keyPath)
                continue
            }
            if !collect(Mirror(reflecting: child.value), depth: depth + 1) { return false }
        }
        return true
    }

    /// Adds what a key path reads: a property of its root model's table; for a relationship, every property of
    /// the destination's table as well (a related model's change or deletion can change the results).
    private mutating func add(_ keyPath: AnyKeyPath) {
        guard let modelType = type(of: keyPath).rootType as? any PersistentModel.Type else { return }
        let entity = Schema.Entity.of(modelType)
        guard let index = entity.indexIfPersisted(keyPath) else {
            readsEverything = true
            return
        }
        let property = entity.persistedProperties[index]
        read(property.name, in: entity.tableName)
        if let destination = property.relationshipInfo?.destination {
            tables[destination.tableName] = .all
        }
    }

    private mutating func read(_ name: String, in table: String) {
        switch tables[table] {
        case .all: return
        case .properties(var names)?:
            names.insert(name)
            tables[table] = .properties(names)
        case nil:
            tables[table] = .properties([name])
        }
    }

}
