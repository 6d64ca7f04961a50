/// A section of fetched results: the models that share one value of the key path the results are sectioned by.
///
/// A section is a collection of its models, in the results' order; its `title` is the value they share.
///
/// ```swift
/// for section in observer.sections ?? SectionedResults() {
///     print(section.title, section.count)
/// }
/// ```
public struct ResultsSection<Element, SectionTitle>: RandomAccessCollection, Identifiable
where Element: PersistentModel, SectionTitle: Hashable {
    /// The value every model of the section has at the key path the results are sectioned by.
    public let title: SectionTitle
    let elements: [Element]

    init(title: SectionTitle, elements: [Element]) {
        self.title = title
        self.elements = elements
    }

    /// The section's identity: its title, which no other section of the same results has.
    public var id: SectionTitle { title }

    /// The position of the section's first model: 0.
    public var startIndex: Int { 0 }
    /// The position after the section's last model.
    public var endIndex: Int { elements.count }

    /// The model at a position.
    public subscript(position: Int) -> Element { elements[position] }
}
