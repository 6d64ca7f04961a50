/// The coding keys of a snapshot's encoded form: its identifier, and one key per property.
///
/// ``DefaultSnapshot`` encodes itself as a keyed container with these keys; a store that writes its own coder for
/// snapshots can use them too.
public enum DataStoreSnapshotCodingKey: CodingKey, CustomStringConvertible, Sendable {
    /// The key of the snapshot's persistent identifier, `persistentIdentifier`.
    case persistentIdentifier
    /// The key of a property's value: the property's name.
    case modeledProperty(String)

    /// The key for a string: `persistentIdentifier`, or a property's name.
    public init?(stringValue: String) {
        self = stringValue == Self.identifierKey ? .persistentIdentifier : .modeledProperty(stringValue)
    }

    /// Integer keys are not used: always nil.
    public init?(intValue: Int) { nil }

    /// `persistentIdentifier`, or the property's name.
    public var stringValue: String {
        switch self {
        case .persistentIdentifier: Self.identifierKey
        case .modeledProperty(let name): name
        }
    }

    /// Always nil.
    public var intValue: Int? { nil }

    /// The key's string value.
    public var description: String { stringValue }

    private static let identifierKey = "persistentIdentifier"
}
