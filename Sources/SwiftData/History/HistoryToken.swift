/// A bookmark in a store's history: a transaction's place, which you keep (it is `Codable`) to fetch later only the
/// transactions that came after it.
public protocol HistoryToken: Comparable, Decodable, Encodable, Hashable, Identifiable, Sendable {
    /// The type of the token's value.
    associatedtype TokenType: Decodable, Encodable, Hashable, Sendable

    /// The token's value, or nil for a token that marks no place.
    var tokenValue: TokenType? { get }
}
