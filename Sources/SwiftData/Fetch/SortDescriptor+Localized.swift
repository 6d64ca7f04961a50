public import Foundation

// Foundation on Linux has no `String.StandardComparator.localizedStandard` or `.localized`: its standard
// comparators compare without a locale, and trap on case-insensitive options. So
// `SortDescriptor(\.name, comparator: .localizedStandard)` finds these instead. The descriptor they make sorts by
// the string's `localizedStandardCompare(_:)` (or `localizedCompare(_:)`) order through a key path appended to the
// one given, so `sorted(using:)` and fetches order exactly alike: SQLite sorts by that key path with a collation
// that calls the same comparison (`LocalizedStringOrder`), other stores sort such descriptors in memory.

/// The localized string orderings a `SortDescriptor` can sort by on Linux, named as Apple's
/// `String.StandardComparator` members are: write `SortDescriptor(\.name, comparator: .localizedStandard)`.
///
/// An extension for Linux, where Foundation's `String.StandardComparator` has only `.lexical`. A descriptor made
/// with one of these sorts in SQL on SQLite (through a collation that calls the same comparison) and in memory on
/// other stores; its `keyPath` is the given key path with a step appended.
public struct _LocalizedStringComparator: Hashable, Sendable {
    private let isStandard: Bool

    /// Compares strings as the Finder does: `localizedStandardCompare(_:)`, a localized, numeric, case-insensitive
    /// comparison in the current locale.
    public static var localizedStandard: _LocalizedStringComparator { _LocalizedStringComparator(isStandard: true) }

    /// Compares strings with `localizedCompare(_:)`, a localized comparison in the current locale.
    public static var localized: _LocalizedStringComparator { _LocalizedStringComparator(isStandard: false) }
}

extension SortDescriptor {
    /// Creates a sort descriptor that orders a string property with a localized comparison:
    /// `.localizedStandard` (`localizedStandardCompare(_:)`) or `.localized` (`localizedCompare(_:)`).
    ///
    /// On Linux, the extension that makes Apple's `SortDescriptor(\.name, comparator: .localizedStandard)`
    /// compile; SQLite sorts by such descriptors in SQL, other stores in memory.
    public init(
        _ keyPath: any KeyPath<Compared, String> & Sendable,
        comparator: _LocalizedStringComparator,
        order: SortOrder = .forward
    ) {
        if comparator == .localizedStandard {
            self.init(sendable(keyPath.appending(path: \String._localizedStandardOrder)), order: order)
        } else {
            self.init(sendable(keyPath.appending(path: \String._localizedOrder)), order: order)
        }
    }

    /// Creates a sort descriptor that orders an optional string property with a localized comparison; `nil`
    /// comes first in forward order, as with Foundation's comparators.
    public init(
        _ keyPath: any KeyPath<Compared, String?> & Sendable,
        comparator: _LocalizedStringComparator,
        order: SortOrder = .forward
    ) {
        if comparator == .localizedStandard {
            self.init(sendable(keyPath.appending(path: \String?._localizedStandardOrder)), order: order)
        } else {
            self.init(sendable(keyPath.appending(path: \String?._localizedOrder)), order: order)
        }
    }
}

/// A key path appended to a sendable one, typed as sendable. `appending(path:)` returns a plain `KeyPath`, but
/// both parts are sendable (the caller's, and a computed property that captures nothing), so the whole is too;
/// `Sendable` is a marker, so the value is the same object either way.
private func sendable<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> any KeyPath<Root, Value> & Sendable {
    unsafeBitCast(keyPath, to: (any KeyPath<Root, Value> & Sendable).self)
}

/// A string ordered by `localizedStandardCompare(_:)`, the sort key of `.localizedStandard` descriptors.
public struct _LocalizedStandardOrder: Comparable, Sendable {
    /// The string.
    public let string: String

    /// Orders two strings with `localizedStandardCompare(_:)`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.string.localizedStandardCompare(rhs.string) == .orderedAscending
    }

    /// True when `localizedStandardCompare(_:)` finds the strings the same.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.string.localizedStandardCompare(rhs.string) == .orderedSame
    }
}

/// A string ordered by `localizedCompare(_:)`, the sort key of `.localized` descriptors.
public struct _LocalizedOrder: Comparable, Sendable {
    /// The string.
    public let string: String

    /// Orders two strings with `localizedCompare(_:)`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.string.localizedCompare(rhs.string) == .orderedAscending
    }

    /// True when `localizedCompare(_:)` finds the strings the same.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.string.localizedCompare(rhs.string) == .orderedSame
    }
}

extension String {
    /// The string as a `.localizedStandard` sort key.
    public var _localizedStandardOrder: _LocalizedStandardOrder { _LocalizedStandardOrder(string: self) }
    /// The string as a `.localized` sort key.
    public var _localizedOrder: _LocalizedOrder { _LocalizedOrder(string: self) }
}

extension Optional where Wrapped == String {
    /// The string, if any, as a `.localizedStandard` sort key.
    public var _localizedStandardOrder: _LocalizedStandardOrder? { map { _LocalizedStandardOrder(string: $0) } }
    /// The string, if any, as a `.localized` sort key.
    public var _localizedOrder: _LocalizedOrder? { map { _LocalizedOrder(string: $0) } }
}
