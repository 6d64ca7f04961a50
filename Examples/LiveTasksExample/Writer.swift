import Foundation
import SwiftData

/// One save of the writer process.
enum WriterStep {
    case add(String, category: String)
    case complete(String)

    /// What the writer does, in order: it leaves "Water the plants", "Call the plumber" and "Review the pull
    /// request" open.
    static let script: [WriterStep] = [
        .add("Buy milk", category: "Home"),
        .add("Write the report", category: "Work"),
        .add("Water the plants", category: "Home"),
        .complete("Buy milk"),
        .add("Review the pull request", category: "Work"),
        .complete("Write the report"),
        .add("Call the plumber", category: "Home"),
    ]
}

/// The second process: runs the script on the store, one save per step, and returns the exit status. The viewer
/// sees nothing of this process but its commits to the store file.
func runWriter(storeURL: URL) -> Int32 {
    do {
        let context = ModelContext(try openContainer(at: storeURL))
        for step in WriterStep.script {
            // A pause between saves, so that the viewer shows the list growing and shrinking step by step.
            Thread.sleep(forTimeInterval: 0.2)
            switch step {
            case .add(let title, let category):
                context.insert(TaskItem(title: title, category: category))
            case .complete(let title):
                let open = FetchDescriptor<TaskItem>(predicate: #Predicate { $0.title == title && !$0.isCompleted })
                for task in try context.fetch(open) { task.isCompleted = true }
            }
            try context.save()
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("writer: \(error)\n".utf8))
        return 1
    }
}
