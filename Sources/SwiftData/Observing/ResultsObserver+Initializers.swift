// The initializers Apple declares: results without sections (`SectionTitle` is `Never`), and results sectioned by a
// `String` or optional `String` key path (`SectionTitle` is `String`; a nil key gives the section titled "").

extension ResultsObserver where SectionTitle == Never {
    /// Observes the models a fetch descriptor selects, from a context, following its changes.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: nil, sectionTitle: nil, modelContext: modelContext,
            isolation: isolation)
    }

    /// Observes the models a fetch descriptor selects, from a new context of a container.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: nil, sectionTitle: nil,
            modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Observes the models a predicate selects, in the order of sort descriptors, from a context, following its changes.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: nil,
            sectionTitle: nil, modelContext: modelContext,
            isolation: isolation)
    }

    /// Observes the models a predicate selects, in the order of sort descriptors, from a new context of a container.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: nil,
            sectionTitle: nil, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }
}

extension ResultsObserver where SectionTitle == String {
    /// Observes the models a fetch descriptor selects, in sections by a key path's string, from a context, following its changes. The sort starts with the section key path, in
    /// Swift's `String` order, so each section's models are together.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, sectionTitle: { $0[keyPath: sectionBy] },
            modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models a fetch descriptor selects, in sections by a key path's optional string (models without one are in the section titled ""), from a context, following its changes. The sort starts with the section key path, in
    /// Swift's `String` order, so each section's models are together.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String?>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, sectionTitle: { $0[keyPath: sectionBy] ?? "" },
            modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models a fetch descriptor selects, in sections by a key path's string, from a new context of a container. The sort starts with the section key path, in
    /// Swift's `String` order, so each section's models are together.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, sectionTitle: { $0[keyPath: sectionBy] },
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Observes the models a fetch descriptor selects, in sections by a key path's optional string (models without one are in the section titled ""), from a new context of a container. The sort starts with the section key path, in
    /// Swift's `String` order, so each section's models are together.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String?>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, sectionTitle: { $0[keyPath: sectionBy] ?? "" },
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Observes the models a predicate selects, in sections by a key path's string, from a context, following its changes. The sort starts with the section key path, in
    /// Swift's `String` order, so each section's models are together.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy,
            sectionTitle: { $0[keyPath: sectionBy] },
            modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models a predicate selects, in sections by a key path's optional string (models without one are in the section titled ""), from a context, following its changes. The sort starts with the section key path, in
    /// Swift's `String` order, so each section's models are together.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String?>,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy,
            sectionTitle: { $0[keyPath: sectionBy] ?? "" },
            modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models a predicate selects, in sections by a key path's string, from a new context of a container. The sort starts with the section key path, in
    /// Swift's `String` order, so each section's models are together.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy,
            sectionTitle: { $0[keyPath: sectionBy] },
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Observes the models a predicate selects, in sections by a key path's optional string (models without one are in the section titled ""), from a new context of a container. The sort starts with the section key path, in
    /// Swift's `String` order, so each section's models are together.
    ///
    /// - Throws: the error of the first fetch.
    public convenience init(
        filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String?>,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), sectionBy: sectionBy,
            sectionTitle: { $0[keyPath: sectionBy] ?? "" },
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }
}
