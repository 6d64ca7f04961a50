import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `#Unique<T>([\.a], [\.b, \.c])`: declares uniqueness constraints, each a group of key paths whose values must
/// be unique together. Expands to a static member that `Schema` reads.
public enum UniqueMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let groups = keyPathGroups(node, in: context)
        return ["static var _$swiftDataUniquenessConstraints: [[Swift.AnyKeyPath]] { \(raw: groups) }"]
    }
}

/// `#Index<T>([\.a], [\.a, \.b])` or `#Index<T>(.binary([\.a]), .rtree([\.b]))`: declares indexes. Expands to a
/// static member that `Schema` reads.
public enum IndexMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let groups = keyPathGroups(node, in: context)
        return ["static var _$swiftDataIndices: [[Swift.AnyKeyPath]] { \(raw: groups) }"]
    }
}

/// The macro's arguments as an array of key-path arrays, with each `\.name` given the model type as its root so
/// the key paths type-check as `AnyKeyPath`.
private func keyPathGroups(
    _ node: some FreestandingMacroExpansionSyntax,
    in context: some MacroExpansionContext
) -> String {
    let root =
        node.genericArgumentClause?.arguments.first?.argument.trimmedDescription
        ?? context.enclosingClass?.name.trimmedDescription
        ?? "Self"
    let groups = node.arguments.map { argument -> String in
        var expression = argument.expression
        // `.binary([...])` and `.rtree([...])` wrap the key paths of a typed index.
        if let call = expression.as(FunctionCallExprSyntax.self), let inner = call.arguments.first?.expression {
            expression = inner
        }
        guard let array = expression.as(ArrayExprSyntax.self) else { return "[]" }
        let keyPaths = array.elements.map { element -> String in
            guard let keyPath = element.expression.as(KeyPathExprSyntax.self), keyPath.root == nil else {
                return element.expression.trimmedDescription
            }
            return "\\" + root + keyPath.components.trimmedDescription
        }
        return "[" + keyPaths.joined(separator: ", ") + "]"
    }
    return "[" + groups.joined(separator: ", ") + "]"
}
