internal import Foundation

/// The localized orders a sort descriptor can sort strings by (`SortDescriptor(\.name, comparator:
/// .localizedStandard)`), which a dialect may reproduce in SQL (`SQLDialect.localizedOrderingTerm`).
package enum LocalizedStringOrder: Sendable {
    /// `localizedStandardCompare(_:)`.
    case localizedStandard
    /// `localizedCompare(_:)`.
    case localized

    /// The string property a localized sort's key path sorts by, and the order: on Linux such a descriptor's key
    /// path is the property's with a step that makes the localized sort key appended (see
    /// `SortDescriptor+Localized.swift`). Nil for any other key path.
    static func sortedProperty(_ keyPath: AnyKeyPath, of entity: Schema.Entity) -> (index: Int, order: Self)? {
        for property in entity.persistedProperties where !property.isRelationship {
            if property.valueType == String.self {
                if keyPath == property.keyPath.appending(path: \String._localizedStandardOrder) {
                    return (property.index, .localizedStandard)
                }
                if keyPath == property.keyPath.appending(path: \String._localizedOrder) {
                    return (property.index, .localized)
                }
            } else if property.valueType == String?.self {
                if keyPath == property.keyPath.appending(path: \String?._localizedStandardOrder) {
                    return (property.index, .localizedStandard)
                }
                if keyPath == property.keyPath.appending(path: \String?._localizedOrder) {
                    return (property.index, .localized)
                }
            }
        }
        return nil
    }
}
