import Foundation
import Testing

@testable import SwiftData

/// `PersistentIdentifier.identifier(for:entityName:primaryKey:)` with keys of every kind a custom store uses.
@Suite struct PersistentIdentifierKeyTests {
    /// A key type of a store's own: a struct that encodes as a keyed container.
    struct CompositeKey: Codable, Hashable, Comparable, CustomStringConvertible {
        var shelf: String
        var slot: Int
        static func < (lhs: CompositeKey, rhs: CompositeKey) -> Bool { (lhs.shelf, lhs.slot) < (rhs.shelf, rhs.slot) }
        var description: String { "\(shelf)-\(slot)" }
    }

    private func roundTrip(_ identifier: PersistentIdentifier) throws -> PersistentIdentifier {
        try JSONDecoder().decode(PersistentIdentifier.self, from: JSONEncoder().encode(identifier))
    }

    @Test func uuidKeysRoundTripThroughJSONAndCompareEqual() throws {
        let key = UUID()
        let identifier = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: key)
        let decoded = try roundTrip(identifier)
        #expect(decoded == identifier)
        #expect(decoded.hashValue == identifier.hashValue)
        #expect(decoded.storeIdentifier == "store")
        #expect(decoded.entityName == "Trip")
        #expect(try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: key) == decoded)
        #expect(Set([identifier, decoded]).count == 1)
    }

    @Test func stringKeysRoundTripThroughJSONAndCompareEqual() throws {
        let identifier = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: "lisbon")
        let decoded = try roundTrip(identifier)
        #expect(decoded == identifier)
        #expect(decoded.hashValue == identifier.hashValue)
        #expect(try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: "lisbon") == decoded)
    }

    @Test func structKeysRoundTripWhateverTheOrderOfTheirFields() throws {
        let key = CompositeKey(shelf: "a", slot: 3)
        let identifier = try PersistentIdentifier.identifier(for: "store", entityName: "Book", primaryKey: key)
        #expect(try roundTrip(identifier) == identifier)
        // Written by hand with the fields the other way round, the key encodes the same, sorted.
        let reordered = try JSONDecoder().decode(CompositeKey.self, from: Data(#"{"slot":3,"shelf":"a"}"#.utf8))
        #expect(
            try PersistentIdentifier.identifier(for: "store", entityName: "Book", primaryKey: reordered) == identifier)
    }

    @Test func differentKeysGiveDifferentIdentifiers() throws {
        let first = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: UUID())
        let second = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: UUID())
        #expect(first != second)
        let lisbon = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: "lisbon")
        let porto = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: "porto")
        #expect(lisbon != porto)
        // The same key in another store or entity is another model.
        #expect(try PersistentIdentifier.identifier(for: "other", entityName: "Trip", primaryKey: "lisbon") != lisbon)
        #expect(try PersistentIdentifier.identifier(for: "store", entityName: "Stop", primaryKey: "lisbon") != lisbon)
    }

    @Test func keysOfDifferentTypesDifferEvenWhenTheyEncodeAlike() throws {
        let uuid = UUID()
        let asUUID = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: uuid)
        let asString = try PersistentIdentifier.identifier(
            for: "store", entityName: "Trip", primaryKey: uuid.uuidString)
        #expect(asUUID != asString)
        // An integer written as a string is a string key, not the integer's row.
        let text = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: "42")
        let integer = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: 42)
        #expect(text != integer)
        #expect(text.primaryKey == nil)
    }

    @Test(arguments: [Int64(0), 1, 42, -7, Int64.max, Int64.min])
    func integerKeysKeepTheSQLiteStoresRowKey(_ row: Int64) throws {
        let expected = PersistentIdentifier(storeIdentifier: "store", entityName: "Trip", primaryKey: row)
        #expect(try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: row) == expected)
        #expect(try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: Int(row)) == expected)
        #expect(expected.primaryKey == row)
        #expect(try roundTrip(expected) == expected)
    }

    @Test func smallerAndUnsignedIntegerKeysAreRowsToo() throws {
        let expected = PersistentIdentifier(storeIdentifier: "store", entityName: "Trip", primaryKey: 7)
        #expect(try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: Int32(7)) == expected)
        #expect(try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: UInt8(7)) == expected)
        // An unsigned key past Int64's range is no row: it is kept encoded, and still round-trips.
        let huge = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: UInt64.max)
        #expect(huge.primaryKey == nil)
        #expect(try roundTrip(huge) == huge)
    }

    @Test func encodedKeysAreNeitherTemporaryNorRowsAndSortAfterRows() throws {
        let encoded = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: "b")
        let other = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: "a")
        let row = PersistentIdentifier(storeIdentifier: "store", entityName: "Trip", primaryKey: 1)
        #expect(!encoded.isTemporary)
        #expect(encoded.primaryKey == nil)
        #expect(row < encoded)
        #expect(other < encoded)
        #expect([encoded, row, other].sorted() == [row, other, encoded])
        #expect(encoded.description == #"PersistentIdentifier(store/Trip/"b")"#)
    }

    /// Identifiers saved by an earlier version (as JSON, say) still decode: the encoded form names the store, the
    /// entity and the key, whatever the identifier keeps in memory.
    @Test func theEncodedFormStaysTheSame() throws {
        let saved = #"{"id":{"entityName":"Trip","key":{"permanent":{"_0":7}},"storeIdentifier":"store"}}"#
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: Data(saved.utf8))
        let expected = PersistentIdentifier(storeIdentifier: "store", entityName: "Trip", primaryKey: 7)
        #expect(decoded == expected)
        #expect(decoded.hashValue == expected.hashValue)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(expected), as: UTF8.self) == saved)
    }

    /// Keys of every kind keep the form the compiler's coding of the key gave them: a store's key encoded as its
    /// type and JSON, and a temporary key.
    @Test func theEncodedFormOfEveryKindOfKeyStaysTheSame() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encodedKey =
            #"{"id":{"entityName":"Trip","key":{"encoded":{"type":"String","value":"\"lisbon\""}},"#
            + #""storeIdentifier":"store"}}"#
        let lisbon = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: "lisbon")
        #expect(String(decoding: try encoder.encode(lisbon), as: UTF8.self) == encodedKey)
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: Data(encodedKey.utf8))
        #expect(decoded == lisbon)
        #expect(decoded.hashValue == lisbon.hashValue)

        let temporary = #"{"id":{"entityName":"Trip","key":{"temporary":{"_0":7}}}}"#
        let decodedTemporary = try JSONDecoder().decode(PersistentIdentifier.self, from: Data(temporary.utf8))
        #expect(decodedTemporary.isTemporary)
        #expect(decodedTemporary.storeIdentifier == nil)
        #expect(String(decoding: try encoder.encode(decodedTemporary), as: UTF8.self) == temporary)

        // A key must name exactly one kind.
        let twoKinds = #"{"id":{"entityName":"Trip","key":{"temporary":{"_0":7},"permanent":{"_0":7}}}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PersistentIdentifier.self, from: Data(twoKinds.utf8))
        }
    }

    /// Identifiers a store makes for one entity share what names the store and entity; ones made apart are still
    /// equal when their parts are, and differ when any part does.
    @Test func identifiersMadeApartCompareByTheirParts() throws {
        let a = PersistentIdentifier(storeIdentifier: "store", entityName: "Trip", primaryKey: 7)
        let b = PersistentIdentifier(storeIdentifier: String("sto" + "re"), entityName: "Trip", primaryKey: 7)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != PersistentIdentifier(storeIdentifier: "other", entityName: "Trip", primaryKey: 7))
        #expect(a != PersistentIdentifier(storeIdentifier: "store", entityName: "Trip2", primaryKey: 7))
        #expect(a != PersistentIdentifier(storeIdentifier: "store", entityName: "Trip", primaryKey: 8))
    }
}
