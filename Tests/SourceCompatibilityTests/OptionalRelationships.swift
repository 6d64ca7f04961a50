// Predicates and sorts through optional relationships, as CloudKit-ready models (every relationship optional)
// write them.
import Foundation
import SwiftData
import Testing

@Model
final class Author {
    var name: String = ""
    @Relationship(deleteRule: .cascade, inverse: \Book.author) var books: [Book]? = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class Book {
    var title: String = ""
    var published: Date?
    var author: Author?

    init(title: String, published: Date? = nil, author: Author? = nil) {
        self.title = title
        self.published = published
        self.author = author
    }
}

@Suite struct OptionalRelationshipTests {
    @Test func predicatesReachThroughOptionalRelationships() throws {
        let container = try ModelContainer(
            for: Author.self, Book.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let tove = Author(name: "Tove")
        context.insert(tove)
        context.insert(Book(title: "Comet", author: tove))
        context.insert(Book(title: "Moominsummer", author: tove))
        context.insert(Book(title: "Anonymous"))
        try context.save()

        let name = "Tove"
        let byTove = try context.fetch(
            FetchDescriptor<Book>(
                predicate: #Predicate { $0.author?.name == name },
                sortBy: [SortDescriptor(\.title)]
            ))
        #expect(byTove.map(\.title) == ["Comet", "Moominsummer"])

        let orphans = try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.author == nil }))
        #expect(orphans.map(\.title) == ["Anonymous"])

        let prolific = try context.fetch(
            FetchDescriptor<Author>(predicate: #Predicate { ($0.books?.count ?? 0) > 1 }))
        #expect(prolific.map(\.name) == ["Tove"])

        let withComet = try context.fetch(
            FetchDescriptor<Author>(
                predicate: #Predicate { author in
                    author.books.flatMap { books in books.contains { $0.title == "Comet" } } == true
                }))
        #expect(withComet.map(\.name) == ["Tove"])
    }
}
