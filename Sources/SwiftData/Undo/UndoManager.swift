#if !canImport(Darwin)
    internal import Dispatch
    internal import Foundation

    /// A general-purpose recorder of operations for undo and redo, with Foundation's API, for platforms whose
    /// Foundation lacks it.
    ///
    /// Operations are registered as closures and kept in groups. With `groupsByEvent` (the default) the first
    /// registration outside any group opens a group. Linux has no run loop to close it at the end of an event, so it
    /// closes at the first of these:
    ///
    /// - the end of the main actor's turn, when the registration ran on the main actor (as `mainContext`'s
    ///   autosave runs after the turn that made the changes);
    /// - the end of the job of a `@ModelActor` whose context uses this undo manager;
    /// - `ModelContext.processPendingChanges()`, on any thread;
    /// - `undo()` or `redo()`, which, as Foundation's do, first close a group left open at the top level.
    ///
    /// ```swift
    /// let undoManager = UndoManager()
    /// context.undoManager = undoManager
    /// trip.name = "Lisbon"
    /// undoManager.undo()   // trip.name is back to its old value
    /// ```
    open class UndoManager {
        private struct Action {
            weak var target: AnyObject?
            let handler: (AnyObject) -> Void
        }

        private struct Group {
            var actions: [Action] = []
            var actionName = ""
            /// True for the group `groupsByEvent` opened, as opposed to one `beginUndoGrouping()` opened.
            var isAutomatic = false
        }

        private var undoStack: [Group] = []
        private var redoStack: [Group] = []
        /// Groups being built, innermost last.
        private var openGroups: [Group] = []
        private var registrationDisabledCount = 0
        /// True while a main-actor task that closes the automatic group is scheduled.
        private var isClosingScheduled = false

        /// True while `undo()` runs its actions.
        public private(set) var isUndoing = false
        /// True while `redo()` runs its actions.
        public private(set) var isRedoing = false
        /// True when a registration outside any group opens a group by itself. The default is true.
        open var groupsByEvent = true
        /// The most groups kept for undo; 0 (the default) keeps all.
        open var levelsOfUndo = 0 {
            didSet { trim() }
        }

        /// Creates an empty undo manager.
        public init() {}

        // MARK: - Registering Undo Operations

        /// Records a closure that undoes an operation on a target. Registering while undoing records a redo.
        open func registerUndo<TargetType: AnyObject>(
            withTarget target: TargetType, handler: @escaping (TargetType) -> Void
        ) {
            guard isUndoRegistrationEnabled else { return }
            if openGroups.isEmpty {
                guard groupsByEvent else { return }
                openGroups.append(Group(isAutomatic: true))
                scheduleClosingOnTheMainActor()
            }
            openGroups[openGroups.count - 1].actions.append(Action(target: target) { handler($0 as! TargetType) })
        }

        /// Sets the name of the group being built, or of the group registered last.
        open func setActionName(_ actionName: String) {
            if openGroups.isEmpty {
                if isUndoing, !redoStack.isEmpty {
                    redoStack[redoStack.count - 1].actionName = actionName
                } else if !undoStack.isEmpty {
                    undoStack[undoStack.count - 1].actionName = actionName
                }
            } else {
                openGroups[openGroups.count - 1].actionName = actionName
            }
        }

        /// True unless registration is disabled.
        open var isUndoRegistrationEnabled: Bool { registrationDisabledCount == 0 }

        /// Stops recording registrations until a matching `enableUndoRegistration()`.
        open func disableUndoRegistration() { registrationDisabledCount += 1 }

        /// Resumes recording after `disableUndoRegistration()`.
        open func enableUndoRegistration() {
            precondition(registrationDisabledCount > 0, "enableUndoRegistration() without disableUndoRegistration()")
            registrationDisabledCount -= 1
        }

        // MARK: - Grouping

        /// Opens a group; the operations registered until the matching `endUndoGrouping()` undo together.
        open func beginUndoGrouping() {
            openGroups.append(Group())
        }

        /// Closes the innermost group.
        open func endUndoGrouping() {
            precondition(!openGroups.isEmpty, "endUndoGrouping() without beginUndoGrouping()")
            let group = openGroups.removeLast()
            if openGroups.isEmpty {
                guard !group.actions.isEmpty else { return }
                if isUndoing {
                    redoStack.append(group)
                } else {
                    undoStack.append(group)
                    if !isRedoing { redoStack.removeAll() }
                    trim()
                }
            } else {
                openGroups[openGroups.count - 1].actions += group.actions
            }
        }

        /// How many groups are open.
        open var groupingLevel: Int { openGroups.count }

        /// Closes the group that `groupsByEvent` opened, if it is the only one open.
        func closeAutomaticGroup() {
            if openGroups.count == 1 && openGroups[0].isAutomatic { endUndoGrouping() }
        }

        /// Closes the top-level group, as Foundation's `undo()` and `redo()` do first, when `groupsByEvent` is true
        /// and it is the only group open: the automatic group, or one `beginUndoGrouping()` opened and nothing
        /// closed.
        private func closeTopLevelGroup() {
            if groupsByEvent && openGroups.count == 1 { endUndoGrouping() }
        }

        /// When the automatic group opens on the main actor, closes it at the end of the main actor's turn, the
        /// place a run loop's event would end.
        private func scheduleClosingOnTheMainActor() {
            guard MainQueue.isCurrent, !isClosingScheduled else { return }
            isClosingScheduled = true
            let box = MainThreadUndoManager(undoManager: self)
            Task { @MainActor in
                box.undoManager.isClosingScheduled = false
                box.undoManager.closeAutomaticGroup()
            }
        }

        // MARK: - Undoing and Redoing

        /// True when there is a group to undo.
        open var canUndo: Bool {
            !undoStack.isEmpty || (openGroups.count == 1 && groupsByEvent && !openGroups[0].actions.isEmpty)
        }

        /// True when there is a group to redo.
        open var canRedo: Bool { !redoStack.isEmpty }

        /// Undoes the last group. Its actions register the redo group.
        ///
        /// As Foundation's does, it first closes the group open at the top level when `groupsByEvent` is true.
        /// Calling it while a group nested in another is open stops the program.
        open func undo() {
            closeTopLevelGroup()
            precondition(openGroups.isEmpty, "undo() with an open undo group")
            guard let group = undoStack.popLast() else { return }
            isUndoing = true
            replay(group)
            isUndoing = false
        }

        /// Redoes the last undone group. Its actions register a new undo group.
        ///
        /// Like `undo()`, it first closes the group open at the top level when `groupsByEvent` is true; a group
        /// with changes registered since the undo clears what there was to redo.
        open func redo() {
            closeTopLevelGroup()
            precondition(openGroups.isEmpty, "redo() with an open undo group")
            guard let group = redoStack.popLast() else { return }
            isRedoing = true
            replay(group)
            isRedoing = false
        }

        /// Runs a group's actions inside a new group, which `isUndoing`/`isRedoing` send to the right stack.
        private func replay(_ group: Group) {
            beginUndoGrouping()
            run(group)
            setActionName(group.actionName)
            endUndoGrouping()
        }

        /// The name of the group `undo()` would undo.
        open var undoActionName: String { undoStack.last?.actionName ?? "" }
        /// The name of the group `redo()` would redo.
        open var redoActionName: String { redoStack.last?.actionName ?? "" }

        /// Forgets every undo and redo group.
        open func removeAllActions() {
            undoStack.removeAll()
            redoStack.removeAll()
            openGroups.removeAll()
        }

        /// Forgets every action registered with a target.
        open func removeAllActions(withTarget target: AnyObject) {
            func keep(_ group: Group) -> Group {
                var kept = group
                kept.actions.removeAll { $0.target === target || $0.target == nil }
                return kept
            }
            undoStack = undoStack.map(keep).filter { !$0.actions.isEmpty }
            redoStack = redoStack.map(keep).filter { !$0.actions.isEmpty }
        }

        // MARK: - Internal

        /// Runs a group's actions, last registered first.
        private func run(_ group: Group) {
            for action in group.actions.reversed() {
                guard let target = action.target else { continue }
                action.handler(target)
            }
        }

        private func trim() {
            guard levelsOfUndo > 0, undoStack.count > levelsOfUndo else { return }
            undoStack.removeFirst(undoStack.count - levelsOfUndo)
        }
    }

    /// Tells whether code runs on the main actor, without stopping the program when it does not.
    private enum MainQueue {
        /// The key the main queue holds a value under, set once, when it is first needed.
        private static let marker: DispatchSpecificKey<Bool> = {
            let key = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: key, value: true)
            return key
        }()

        /// True on the main thread, or in work the main queue runs: the main actor's jobs run there, and after
        /// `dispatchMain()` that is not the main thread.
        static var isCurrent: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: marker) == true }
    }

    /// An undo manager used on the main actor, carried into the main-actor task that closes its automatic group.
    private struct MainThreadUndoManager: @unchecked Sendable {
        // @unchecked: made only on the main actor, and used only by a task that runs on the main actor.
        let undoManager: UndoManager
    }
#endif
