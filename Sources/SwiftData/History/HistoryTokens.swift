/// The history tokens a predicate names: the values it compares transactions' tokens with, such as `lastToken` in
/// `#Predicate { $0.token > lastToken }`.
///
/// A fetch checks them against what each store deleted (see `ModelContext.fetchHistory(_:)`). A predicate is a tree
/// of expression values, and a token it captured is a value in it; the tree is walked by reflection, as its node
/// types are generic and open-ended.
struct HistoryTokens {
    /// The places in history the tokens name, by store identifier.
    private var places: [String: [Int64]] = [:]

    init() {}

    init(in predicate: Predicate<DefaultHistoryTransaction>?) {
        guard let predicate else { return }
        collect(Mirror(reflecting: predicate.expression), depth: 0)
    }

    /// The oldest place a token names in a store's history, or nil when no token names the store.
    func oldest(in storeIdentifier: String) -> Int64? {
        places[storeIdentifier]?.min()
    }

    private mutating func collect(_ mirror: Mirror, depth: Int) {
        // Predicates are shallow trees of values. A captured object is not walked: its stored properties are no
        // part of the predicate's expressions, and a graph of objects could refer back to itself.
        guard depth < 64, mirror.displayStyle != .class else { return }
        for child in mirror.children {
            if let token = child.value as? DefaultHistoryToken {
                for (store, value) in token.tokenValue ?? [:] { places[store, default: []].append(value) }
                continue
            }
            collect(Mirror(reflecting: child.value), depth: depth + 1)
        }
    }
}
