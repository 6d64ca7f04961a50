import Foundation

// A live list of open tasks in one process, while a second process adds and completes tasks in the same SQLite
// store. The list is a `ResultsObserver`: it follows the other process's commits through the store's history, and
// Observation says when to print it again. Nothing polls the store.
//
// Usage: LiveTasksExample [store path]      the viewer; starts the writer on the same store
//        LiveTasksExample --writer <path>   the writer (see Writer.swift)

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--writer" {
    exit(runWriter(storeURL: URL(fileURLWithPath: arguments[2])))
}

do {
    let storeURL: URL
    if arguments.count == 2 {
        storeURL = URL(fileURLWithPath: arguments[1])
    } else {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("LiveTasksExample-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        storeURL = directory.appendingPathComponent("tasks.store")
    }
    // Top-level code runs on the main actor, so the viewer's observer updates on the main actor.
    exit(try await runViewer(storeURL: storeURL))
} catch {
    print("error: \(error)")
    exit(1)
}
