import Foundation
import SwiftData

/// What the viewer waits for.
private enum Event: Sendable {
    case listChanged
    case writerExited(Int32)
    case timedOut
}

/// The viewer process: shows the open tasks, starts the writer on the same store, and prints the list each time it
/// changes. Returns 0 once the writer is gone and the printed list is what it left in the store, 1 if that does not
/// happen within 30 seconds.
@MainActor
func runViewer(storeURL: URL) async throws -> Int32 {
    let container = try openContainer(at: storeURL)
    // Created on the main actor, the observer applies every change there, after the work running now.
    let observer = try ResultsObserver<TaskItem, String>(
        filterBy: #Predicate { !$0.isCompleted },
        sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.title)],
        sectionBy: \.category,
        modelContext: container.mainContext
    )

    // Observation, the writer's exit and the timeout all report here; the loop below handles them one at a time
    // on the main actor.
    let (events, reporter) = AsyncStream.makeStream(of: Event.self)
    // Observation tells of the next change only, when it is about to be made: the viewer prints the list once the
    // change is made, and then tracks it again.
    func trackList() {
        withObservationTracking {
            _ = observer.sections
        } onChange: {
            reporter.yield(.listChanged)
        }
    }

    print("Store: \(storeURL.path)")
    var shown = printList(observer, heading: "initial list")
    trackList()

    let writer = Process()
    writer.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    writer.arguments = ["--writer", storeURL.path]
    writer.terminationHandler = { reporter.yield(.writerExited($0.terminationStatus)) }
    try writer.run()
    print("Started the writer, process \(writer.processIdentifier)")
    Task {
        try? await Task.sleep(for: .seconds(30))
        reporter.yield(.timedOut)
    }

    var updates = 0
    // The open tasks the store holds once the writer is gone.
    var expected: [PersistentIdentifier]?
    for await event in events {
        switch event {
        case .listChanged:
            updates += 1
            shown = printList(observer, heading: "update \(updates)")
            trackList()
        case .writerExited(let status):
            guard status == 0 else {
                print("The writer failed with status \(status)")
                return 1
            }
            // A fetch of its own, in a context of its own: what the live list must come to show.
            expected = try ModelContext(container).fetchIdentifiers(observer.fetchDescriptor)
        case .timedOut:
            print("Timed out: the live list never showed what the writer left")
            if writer.isRunning { writer.terminate() }
            return 1
        }
        // The writer's last commit may reach the list before or after its exit is reported.
        if let expected, shown == expected {
            print("live list followed \(updates) updates from process \(writer.processIdentifier)")
            return 0
        }
    }
    return 1
}

/// Prints the open tasks by category under a heading, and returns their identifiers in the order printed.
@MainActor
private func printList(_ observer: ResultsObserver<TaskItem, String>, heading: String) -> [PersistentIdentifier] {
    // Reading the sections applies any change still pending, so the list printed is current.
    let sections = observer.sections ?? SectionedResults()
    let count = sections.reduce(0) { $0 + $1.count }
    print("\n== \(heading): \(count) open task\(count == 1 ? "" : "s")")
    for section in sections {
        print("  \(section.title)")
        for task in section { print("    - \(task.title)") }
    }
    return sections.flatMap { $0.map(\.persistentModelID) }
}
