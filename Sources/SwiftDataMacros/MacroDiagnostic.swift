public import SwiftDiagnostics

/// Every diagnostic the SwiftData macros emit, with a stable message identifier.
public enum MacroDiagnostic: DiagnosticMessage, Sendable {
    /// `@Model` was attached to something other than a class.
    case modelRequiresClass(kind: String)
    /// A persisted stored property has a type SwiftData cannot store.
    case unsupportedStoredType(property: String, type: String)
    /// A persisted property is declared with `let` in a class that may have a `@Model` superclass.
    case persistedPropertyIsLet(property: String)
    /// A persisted `let` has a default, which a model read from the store gets again instead of the stored value.
    case constantDefaultIsNotReadBack(property: String)
    /// `@Relationship` is attached to a property whose type is plainly not a model.
    case relationshipOnNonModel(property: String, type: String)
    /// `@Transient` is attached to a stored property without a default value.
    case transientWithoutDefault(property: String)
    /// `@ModelActor` was attached to something other than an actor.
    case modelActorRequiresActor(kind: String)

    public var message: String {
        switch self {
        case .modelRequiresClass(let kind):
            "'@Model' can only be applied to a class; '\(kind)' is not supported"
        case .unsupportedStoredType(let property, let type):
            "property '\(property)' has type '\(type)', which SwiftData cannot persist; "
                + "use a Codable type, a model, or mark it '@Transient'"
        case .persistedPropertyIsLet(let property):
            "persisted property '\(property)' must be declared with 'var' in a class that may inherit from a model"
        case .constantDefaultIsNotReadBack(let property):
            "'let' property '\(property)' is stored when the model is inserted, but a model read from the store "
                + "gets its default again; declare it with 'var' to read the stored value"
        case .relationshipOnNonModel(let property, let type):
            "'@Relationship' on '\(property)' requires a model type or a collection of models, not '\(type)'"
        case .transientWithoutDefault(let property):
            "'@Transient' property '\(property)' must have a default value"
        case .modelActorRequiresActor(let kind):
            "'@ModelActor' can only be applied to an actor; '\(kind)' is not supported"
        }
    }

    public var diagnosticID: MessageID {
        let id =
            switch self {
            case .modelRequiresClass: "modelRequiresClass"
            case .unsupportedStoredType: "unsupportedStoredType"
            case .persistedPropertyIsLet: "persistedPropertyIsLet"
            case .constantDefaultIsNotReadBack: "constantDefaultIsNotReadBack"
            case .relationshipOnNonModel: "relationshipOnNonModel"
            case .transientWithoutDefault: "transientWithoutDefault"
            case .modelActorRequiresActor: "modelActorRequiresActor"
            }
        return MessageID(domain: "SwiftDataMacros", id: id)
    }

    public var severity: DiagnosticSeverity {
        switch self {
        case .constantDefaultIsNotReadBack: .warning
        default: .error
        }
    }
}

/// A fix-it message for `MacroDiagnostic`.
struct MacroFixIt: FixItMessage {
    let message: String
    let id: String

    var fixItID: MessageID { MessageID(domain: "SwiftDataMacros", id: id) }
}
