/// The token of a transaction the built-in stores recorded: for each store, the place of the transaction in that
/// store's history.
///
/// Tokens compare by their place in history: of two transactions of one store, the later one's token is greater,
/// so `#Predicate { $0.token > lastToken }` selects the transactions recorded after the one whose token you kept.
/// Compare tokens of one store: tokens of different stores are ordered by their store identifiers first, which
/// says nothing about when they were recorded.
///
/// A token is `Codable`: keep the last one you processed (in a file, say) to resume from it after a relaunch.
public struct DefaultHistoryToken: HistoryToken {
    /// The place in each store's history, by store identifier.
    public typealias TokenType = [String: Int64]

    /// The place in each store's history, by store identifier.
    public let tokenValue: TokenType?

    init(storeIdentifier: String, value: Int64) {
        tokenValue = [storeIdentifier: value]
    }

    /// The token's identity: derived from its places in history.
    public var id: Int { hashValue }

    /// Orders tokens by their places in history, store by store (see the type's discussion).
    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool {
        lhs.places.lexicographicallyPrecedes(rhs.places) { ($0.store, $0.value) < ($1.store, $1.value) }
    }

    /// The places, ordered by store identifier.
    var places: [(store: String, value: Int64)] {
        (tokenValue ?? [:]).map { (store: $0.key, value: $0.value) }.sorted { $0.store < $1.store }
    }

    private enum CodingKeys: String, CodingKey {
        case tokenValue
    }

    /// Decodes a token that `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tokenValue = try container.decodeIfPresent(TokenType.self, forKey: .tokenValue)
    }

    /// Encodes the token's places in history.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(tokenValue, forKey: .tokenValue)
    }
}
