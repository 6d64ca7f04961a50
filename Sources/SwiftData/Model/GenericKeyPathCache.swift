/// The key paths of generic models' properties, made once per class and property.
///
/// `@Model` gives a non-generic class a static copy of each property's key path. A generic class cannot have
/// static stored properties, and a key path literal rooted at a generic class is instantiated anew by the run time
/// each time it is evaluated: an allocation on every property access. The accessors of a generic class read their
/// key paths from here instead.
enum GenericKeyPathCache {
    private struct Key: Hashable {
        let root: ObjectIdentifier
        let property: UInt
    }

    private static let keyPaths = Locked<[Key: AnyKeyPath]>([:])

    /// How many key paths were made for a class: one per property, however often they are read.
    static func count(for root: Any.Type) -> Int {
        keyPaths.withLock { table in table.keys.filter { $0.root == ObjectIdentifier(root) }.count }
    }

    static func keyPath<Root, Value>(
        _ root: Root.Type, property: StaticString, make: () -> KeyPath<Root, Value>
    ) -> KeyPath<Root, Value> {
        let key = Key(root: ObjectIdentifier(root), property: UInt(bitPattern: property.utf8Start))
        if let cached = keyPaths.withLock({ $0[key] }) {
            // Only `make` for this class and property stored under this key.
            return unsafeDowncast(cached, to: KeyPath<Root, Value>.self)
        }
        let made = make()
        return keyPaths.withLock { table in
            if let raced = table[key] { return unsafeDowncast(raced, to: KeyPath<Root, Value>.self) }
            table[key] = made
            return made
        }
    }
}

/// The key path of a generic `@Model` class's property, for its accessors: made on first use and kept.
///
/// Not meant to be called directly: `@Model` generates the calls.
public func _swiftDataKeyPath<Root, Value>(
    _ root: Root.Type, _ property: StaticString, _ make: () -> KeyPath<Root, Value>
) -> KeyPath<Root, Value> {
    GenericKeyPathCache.keyPath(root, property: property, make: make)
}
