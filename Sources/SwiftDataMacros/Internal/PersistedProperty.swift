import SwiftSyntax

/// One stored property that `@Model` persists.
struct PersistedProperty {
    let variable: VariableDeclSyntax
    /// The name as written, with backticks when it needs them (`` `default` ``), for references to the property.
    let name: String

    /// The name without backticks, for names made from it (`_default`) and for the schema.
    var bareName: String { name.withoutBackticks }

    /// True for a `let`: a stored property of the instance that SwiftData writes into the backing data once, when
    /// the model is inserted, and reads back in `init(backingData:)`.
    var isConstant: Bool { variable.isLet }

    /// The `defaultValue:` argument of the property's metadata: the declared initial value, typed by its annotation.
    var defaultValueExpression: String {
        guard let value = variable.initialValue?.trimmedDescription else { return "nil" }
        guard let type = variable.declaredType?.trimmedDescription else { return value }
        return "(\(value)) as \(type)"
    }

    /// The `metadata:` argument: an `Attribute` or `Relationship` built from the property's macro arguments.
    var metadataExpression: String {
        for (macro, schemaType) in [("Attribute", "Attribute"), ("Relationship", "Relationship")] {
            guard let attribute = variable.attribute(named: macro) else { continue }
            let arguments = attribute.arguments?.trimmedDescription ?? ""
            // `inverse: nil` means "no inverse", which the initializer cannot tell from an omitted argument.
            let isUnidirectional =
                attribute.arguments?.as(LabeledExprListSyntax.self)?.contains {
                    $0.label?.text == "inverse" && $0.expression.is(NilLiteralExprSyntax.self)
                } ?? false
            return "SwiftData.Schema.\(schemaType)(\(arguments))" + (isUnidirectional ? "._unidirectional()" : "")
        }
        return "nil"
    }
}
