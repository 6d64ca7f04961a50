import SwiftData

/// A to-do item, as the seed article's `Task` model has it, with a category to section the list by. It is not called
/// `Task`, so that Swift's `Task` keeps its name in this program.
@Model
final class TaskItem {
    var title: String
    var category: String
    var isCompleted: Bool
    var createdAt: Date

    init(title: String, category: String, isCompleted: Bool = false, createdAt: Date = .now) {
        self.title = title
        self.category = category
        self.isCompleted = isCompleted
        self.createdAt = createdAt
    }
}

/// Opens the store both processes share: a SQLite file, created by whichever process opens it first.
func openContainer(at storeURL: URL) throws -> ModelContainer {
    try ModelContainer(for: TaskItem.self, configurations: ModelConfiguration(url: storeURL))
}
