/// Fetched results grouped into sections: a collection of `ResultsSection`s, in the order in which each section's
/// first model appears in the sorted results.
///
/// ```swift
/// let observer = try ResultsObserver<Book, String>(sectionBy: \.genre, modelContext: context)
/// for section in observer.sections! {
///     print(section.title, section.map(\.title))
/// }
/// let poetry = observer.sections?[sectionTitle: "Poetry"]
/// ```
public struct SectionedResults<Element, SectionTitle>: RandomAccessCollection
where Element: PersistentModel, SectionTitle: Hashable {
    private let sections: [ResultsSection<Element, SectionTitle>]
    private let positionByTitle: [SectionTitle: Int]

    /// Empty results, with no sections.
    public init() {
        sections = []
        positionByTitle = [:]
    }

    /// Groups sorted models by a title each one has, in the order in which each title first appears.
    init(_ models: some Sequence<Element>, title: (Element) -> SectionTitle) {
        var titles: [SectionTitle] = []
        var members: [[Element]] = []
        var positions: [SectionTitle: Int] = [:]
        for model in models {
            let sectionTitle = title(model)
            if let position = positions[sectionTitle] {
                members[position].append(model)
            } else {
                positions[sectionTitle] = titles.count
                titles.append(sectionTitle)
                members.append([model])
            }
        }
        sections = zip(titles, members).map { ResultsSection(title: $0, elements: $1) }
        positionByTitle = positions
    }

    /// The titles of the sections, in order.
    public var sectionTitles: [SectionTitle] { sections.map(\.title) }

    /// The section with a title, or nil when no model has it. Takes constant time.
    public subscript(sectionTitle title: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        positionByTitle[title].map { sections[$0] }
    }

    /// The position of the first section: 0.
    public var startIndex: Int { 0 }
    /// The position after the last section.
    public var endIndex: Int { sections.count }

    /// The section at a position.
    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> { sections[position] }
}
