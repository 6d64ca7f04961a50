import Foundation
import SwiftDataMacros
import SwiftDiagnostics
import SwiftOperators
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

/// The macros under test, by attribute name.
var testedMacros: [String: any Macro.Type] {
    [
        "Model": ModelMacro.self,
        "_PersistedProperty": PersistedPropertyMacro.self,
        "Attribute": AttributeMacro.self,
        "Relationship": RelationshipMacro.self,
        "Transient": TransientMacro.self,
        "Unique": UniqueMacro.self,
        "Index": IndexMacro.self,
        "ModelActor": ModelActorMacro.self,
    ]
}

/// The conformances `@Model` declares, which the compiler passes to it when the class has none of them yet.
let modelConformances = ["Observable", "PersistentModel", "Sendable"]

/// The macros in `source` expanded, and the context that collected their diagnostics. `missingConformances` are
/// the protocols the compiler would report the `@Model` class as not conforming to yet: none for a subclass of a
/// `@Model` class.
func expansion(
    of source: String,
    missingConformances: [String] = modelConformances
) -> (expanded: Syntax, context: BasicMacroExpansionContext) {
    let file = Parser.parse(source: source)
    let folded = OperatorTable.standardOperators.foldAll(file) { _ in }.as(SourceFileSyntax.self)!
    let context = BasicMacroExpansionContext(sourceFiles: [
        folded: .init(moduleName: "TestModule", fullFilePath: "test.swift")
    ])
    var specs = testedMacros.mapValues { MacroSpec(type: $0) }
    specs["Model"] = MacroSpec(
        type: ModelMacro.self,
        conformances: missingConformances.map { TypeSyntax(IdentifierTypeSyntax(name: .identifier($0))) })
    let expanded = folded.expand(
        macroSpecs: specs,
        contextGenerator: { syntax in
            BasicMacroExpansionContext(sharingWith: context, lexicalContext: syntax.allMacroLexicalContexts())
        },
        indentationWidth: .spaces(4)
    )
    return (Syntax(expanded), context)
}

/// The text of `source` with its macros expanded.
func expandedText(of source: String, missingConformances: [String] = modelConformances) -> String {
    expansion(of: source, missingConformances: missingConformances).expanded.description
}

/// Expands the macros in `source` and checks the expansion against a golden text and the diagnostics against
/// `"<node text>: message"` strings. The expansion must parse without errors. With `SWIFTDATA_RECORD=1` the
/// actual expansion is written to `<test>.expected` beside the test file for review; nothing is rewritten.
func assertExpansion(
    _ source: String,
    expands expected: String? = nil,
    diagnostics expectedDiagnostics: [String] = [],
    missingConformances: [String] = modelConformances,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let (expanded, context) = expansion(of: source, missingConformances: missingConformances)
    let parseDiagnostics = ParseDiagnosticsGenerator.diagnostics(for: expanded)
    #expect(parseDiagnostics.isEmpty, "expansion does not parse: \(parseDiagnostics)", sourceLocation: sourceLocation)

    if let expected {
        let actual = expanded.description.trimmingCharacters(in: .newlines)
        let golden = expected.trimmingCharacters(in: .newlines)
        if actual != golden {
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let goldenLines = golden.split(separator: "\n", omittingEmptySubsequences: false)
            var diff: [String] = []
            for index in 0..<max(actualLines.count, goldenLines.count) {
                let a = index < actualLines.count ? String(actualLines[index]) : "<none>"
                let g = index < goldenLines.count ? String(goldenLines[index]) : "<none>"
                if a != g { diff.append("line \(index + 1):\n  expected: \(g)\n  actual:   \(a)") }
            }
            if ProcessInfo.processInfo.environment["SWIFTDATA_RECORD"] == "1" {
                let path = String(describing: sourceLocation.fileID).replacingOccurrences(of: "/", with: "_")
                try? actual.write(
                    toFile: "\(sourceLocation.filePath).\(sourceLocation.line).expected", atomically: true,
                    encoding: .utf8)
                _ = path
            }
            Issue.record(
                "expansion differs from the golden text:\n\(diff.prefix(10).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        }
    }

    // Diagnostics name the node they are attached to, which shows they sit on the narrowest node.
    let rendered = context.diagnostics.map { "\($0.node.trimmedDescription): \($0.message)" }
    #expect(rendered == expectedDiagnostics, sourceLocation: sourceLocation)
}

extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        var result = Substring(self)
        while let first = result.first, set.contains(first) { result.removeFirst() }
        while let last = result.last, set.contains(last) { result.removeLast() }
        return String(result)
    }
}

extension Set where Element == Character {
    static var newlines: Set<Character> { ["\n", "\r"] }
}
