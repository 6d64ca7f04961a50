#if !canImport(Darwin)
    /// A general-purpose recorder of operations for undo and redo, with Foundation's API, for platforms whose
    /// Foundation lacks it.
    ///
    /// Operations are registered as closures and kept in groups. With `groupsByEvent` (the default) the first
    /// registration outside any group opens a group that stays open until `endUndoGrouping()`, `undo()` or
    /// `ModelContext.processPendingChanges()` closes it; Linux has no run loop to close it at the end of an event.
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
        }

        private var undoStack: [Group] = []
        private var redoStack: [Group] = []
        /// Groups being built, innermost last.
        private var openGroups: [Group] = []
        private var registrationDisabledCount = 0
        private var isAutomaticGroupOpen = false

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
                beginUndoGrouping()
                isAutomaticGroupOpen = true
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
            isAutomaticGroupOpen = false
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

        /// Closes the group that `groupsByEvent` opened, if one is open.
        func closeAutomaticGroup() {
            if isAutomaticGroupOpen && openGroups.count == 1 { endUndoGrouping() }
        }

        // MARK: - Undoing and Redoing

        /// True when there is a group to undo.
        open var canUndo: Bool {
            !undoStack.isEmpty || (openGroups.count == 1 && isAutomaticGroupOpen && !openGroups[0].actions.isEmpty)
        }

        /// True when there is a group to redo.
        open var canRedo: Bool { !redoStack.isEmpty }

        /// Undoes the last group, closing the automatic group first. Its actions register the redo group.
        open func undo() {
            closeAutomaticGroup()
            precondition(openGroups.isEmpty, "undo() with an open undo group")
            guard let group = undoStack.popLast() else { return }
            isUndoing = true
            replay(group)
            isUndoing = false
        }

        /// Redoes the last undone group. Its actions register a new undo group.
        open func redo() {
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
            isAutomaticGroupOpen = false
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
#endif
