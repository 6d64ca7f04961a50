import Foundation
import SwiftData

// Seed 004 ("SwiftData Complete Guide"), model code as the article writes it. `Task` shadows Swift's `Task`
// in this module, exactly as it would in the article's app.

@Model
final class Task {
    var title: String
    var notes: String
    var isCompleted: Bool
    var priority: Priority
    var dueDate: Date?
    var createdAt: Date

    // Relationship
    var category: Category?
    var tags: [Tag]

    // Computed property (persist edilmez)
    var isOverdue: Bool {
        guard let dueDate else { return false }
        return !isCompleted && dueDate < Date()
    }

    init(title: String, notes: String = "", priority: Priority = .medium) {
        self.title = title
        self.notes = notes
        self.isCompleted = false
        self.priority = priority
        self.createdAt = Date()
        self.tags = []
    }

    enum Priority: Int, Codable, CaseIterable {
        case low = 0, medium = 1, high = 2, critical = 3

        var label: String {
            switch self {
            case .low: return "Düşük"
            case .medium: return "Orta"
            case .high: return "Yüksek"
            case .critical: return "Kritik"
            }
        }
    }
}

@Model
final class Category {
    var name: String
    var color: String

    @Relationship(deleteRule: .cascade, inverse: \Task.category)
    var tasks: [Task]

    init(name: String, color: String) {
        self.name = name
        self.color = color
        self.tasks = []
    }
}

/// The article uses `Tag` without showing it; a minimal model.
@Model
final class Tag {
    var name: String
    init(name: String) { self.name = name }
}

/// The article uses `Post` without showing it; a minimal model.
@Model
final class Post {
    var title: String
    init(title: String) { self.title = title }
}

@Model
final class CloudTask {
    var title: String
    var notes: String?  // Optional olmalı ✅
    var isCompleted: Bool  // Default değer var ✅
    var category: Category?  // Relationship optional ✅
    var createdAt: Date

    init(title: String) {
        self.title = title
        self.isCompleted = false
        self.createdAt = Date()
    }
}

// Kullanım
func addTaskToCategory(task: Task, category: Category) {
    task.category = category
    // İlişki otomatik kurulur, iki taraf da güncellenir
}
