import Foundation
import SwiftData
import Testing

/// Seed 004's `URLTransformer`, which the article uses without showing: URLs stored as their UTF-8 text.
final class URLTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? URL).map { Data($0.absoluteString.utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).flatMap { URL(string: String(decoding: $0, as: UTF8.self)) }
    }
}

/// A type that is not Codable, stored through a transformer registered by name.
final class Swatch {
    let red: UInt8, green: UInt8, blue: UInt8
    init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

final class SwatchTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? Swatch).map { Data([$0.red, $0.green, $0.blue]) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 3 else { return nil }
        return Swatch(red: data[0], green: data[1], blue: data[2])
    }
}

@Model
final class User {
    @Attribute(.unique) var email: String  // Unique constraint
    var name: String

    @Attribute(.externalStorage) var profileImage: Data?  // Büyük veri dışarıda

    @Attribute(.transformable(by: URLTransformer.self))
    var website: URL?

    @Attribute(.transformable(by: "SwatchTransformer")) var color: Swatch

    @Attribute(.ephemeral) var draftNote: String = ""

    @Attribute(.allowsCloudEncryption) var secret: String = ""

    init(email: String, name: String) {
        self.email = email
        self.name = name
        self.color = Swatch(red: 1, green: 2, blue: 3)
    }
}

@Suite struct AttributeOptionTests {
    init() {
        ValueTransformer.setValueTransformer(SwatchTransformer(), forName: NSValueTransformerName("SwatchTransformer"))
    }

    @Test func transformableAttributesRoundTripThroughTheirTransformers() throws {
        let directory = try TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(User.self, at: directory.store()))
            let user = User(email: "a@b.c", name: "Aino")
            user.website = URL(string: "https://example.com/ä?q=1")
            user.color = Swatch(red: 10, green: 20, blue: 30)
            context.insert(user)
            try context.save()
        }
        let context = ModelContext(try makeContainer(User.self, at: directory.store()))
        let user = try #require(try context.fetch(FetchDescriptor<User>()).first)
        #expect(user.website == URL(string: "https://example.com/ä?q=1"))
        #expect([user.color.red, user.color.green, user.color.blue] == [10, 20, 30])
        #expect(ValueTransformer.valueTransformerNames().contains(NSValueTransformerName("SwatchTransformer")))
    }

    @Test func ephemeralAttributesAreTrackedButNeverWritten() throws {
        let directory = try TemporaryDirectory()
        let context = ModelContext(try makeContainer(User.self, at: directory.store()))
        let user = User(email: "e@f.g", name: "Eeva")
        context.insert(user)
        try context.save()
        let changed = observesChange({ _ = user.draftNote }) { user.draftNote = "typing…" }
        #expect(changed)
        #expect(user.hasChanges)
        #expect(context.hasChanges)
        try context.save()
        #expect(!user.hasChanges)
        let reread = ModelContext(try makeContainer(User.self, at: directory.store()))
        #expect(try reread.fetch(FetchDescriptor<User>()).first?.draftNote == "")
    }

    @Test func cloudEncryptionIsRecordedInTheSchema() throws {
        let entity = try #require(Schema([User.self]).entity(for: User.self))
        #expect(entity.attributesByName["secret"]?.options == [.allowsCloudEncryption])
        #expect(entity.attributesByName["website"]?.isTransformable == true)
    }
}
