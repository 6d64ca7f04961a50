// Code that inspects and records a schema: attribute options written out with `Codable`, the `.codable` option
// that stores a structure as its encoded form, and a context described for logging.
import Foundation
import SwiftData
import Testing

struct Address: Codable, Equatable, Sendable {
    var street: String
    var city: String
}

@Model
final class Customer {
    @Attribute(.unique) var email: String
    @Attribute(.codable) var shipping: Address
    var billing: Address

    init(email: String, shipping: Address, billing: Address) {
        self.email = email
        self.shipping = shipping
        self.billing = billing
    }
}

@Suite struct SchemaIntrospectionTests {
    @Test func attributeOptionsRoundTripThroughCodable() throws {
        let options: [Schema.Attribute.Option] = [
            .unique, .externalStorage, .spotlight, .allowsCloudEncryption, .preserveValueOnDeletion, .ephemeral,
            .codable, .transformable(by: "NSSecureUnarchiveFromData"),
        ]
        let data = try JSONEncoder().encode(options)
        let decoded = try JSONDecoder().decode([Schema.Attribute.Option].self, from: data)
        #expect(decoded == options)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Schema.Attribute.Option.self, from: Data(#""sparkles""#.utf8))
        }
    }

    @Test func aCodableAttributeIsStoredAsItsEncodedForm() throws {
        let url = try temporaryStoreURL()
        let container = try ModelContainer(for: Customer.self, configurations: ModelConfiguration(url: url))
        let entity = try #require(container.schema.entity(for: Customer.self))
        #expect(entity.attributesByName["shipping"]?.isCodable == true)
        #expect(entity.attributesByName["billing"]?.isCodable == false)

        let context = ModelContext(container)
        let home = Address(street: "Main 1", city: "Turku")
        let office = Address(street: "Harbour 2", city: "Oulu")
        context.insert(Customer(email: "a@example.com", shipping: home, billing: office))
        try context.save()

        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Customer>()).first)
        #expect(stored.shipping == home)
        #expect(stored.billing == office)
        // Filtering by a field of the encoded structure still works (in memory).
        let inTurku = try ModelContext(container).fetch(
            FetchDescriptor<Customer>(predicate: #Predicate { $0.shipping.city == "Turku" }))
        #expect(inTurku.map(\.email) == ["a@example.com"])
    }

    @Test func aContextDescribesItselfForDebugging() throws {
        let container = try ModelContainer(
            for: Customer.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(
            Customer(
                email: "b@example.com", shipping: Address(street: "", city: ""), billing: Address(street: "", city: "")
            ))
        let description = context.debugDescription
        #expect(description.contains("ModelContext"))
        #expect(description.contains("inserted: 1"))
        #expect(String(reflecting: context) == description)
    }
}
