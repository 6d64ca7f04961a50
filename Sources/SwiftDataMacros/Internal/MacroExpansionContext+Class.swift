import SwiftSyntax
import SwiftSyntaxMacros

extension MacroExpansionContext {
    /// The innermost class around the declaration being expanded, if any.
    var enclosingClass: ClassDeclSyntax? {
        lexicalContext.lazy.compactMap { $0.as(ClassDeclSyntax.self) }.first
    }
}
