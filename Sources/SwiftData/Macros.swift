/// Converts a Swift class into a stored model that's managed by SwiftData.
///
/// Stored properties become accessors over the model's backing data, with Observation tracking; computed,
/// `static` and `@Transient` properties are not persisted. Values declared in property declarations become the
/// schema's default values.
///
/// ```swift
/// @Model
/// final class Trip {
///     var name: String
///     var startDate: Date
///     init(name: String, startDate: Date) {
///         self.name = name
///         self.startDate = startDate
///     }
/// }
/// ```
@attached(
    member,
    conformances: Observable, PersistentModel, Sendable,
    names: named(_$backingData), named(persistentBackingData), named(schemaMetadata), named(init),
    named(_$observationRegistrar), named(_SwiftDataNoType), named(access), named(withMutation),
    named(_$swiftDataWithMutation), named(_$swiftDataFlushPending), named(_SwiftDataRoot),
    named(_$swiftDataStorage), named(_$swiftDataPropertyKeyPaths)
)
@attached(memberAttribute)
@attached(extension, conformances: Observable, PersistentModel, Sendable)
public macro Model() = #externalMacro(module: "SwiftDataMacrosPlugin", type: "ModelMacro")

/// The accessors `@Model` gives each persisted stored property. `@Model` applies it; don't write it yourself.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_), prefixed(`_$swiftDataKeyPath_`))
public macro _PersistedProperty(slot: Int = -1) =
    #externalMacro(module: "SwiftDataMacrosPlugin", type: "PersistedPropertyMacro")

/// Specifies the custom behavior that SwiftData applies to the annotated property when managing the owning class.
///
/// - Parameters:
///   - options: Behaviours such as `.unique` or `.externalStorage`.
///   - originalName: The property's name in an earlier schema version, for migrations.
///   - hashModifier: A value that changes the property's schema hash without changing anything else.
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option...,
    originalName: String? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataMacrosPlugin", type: "AttributeMacro")

/// Specifies the options that SwiftData needs to manage the annotated property as a relationship between two models.
///
/// - Parameters:
///   - options: Relationship options such as `.unique`.
///   - deleteRule: What happens to related models when the owning model is deleted. The default is `.nullify`.
///   - minimumModelCount: The fewest related models allowed.
///   - maximumModelCount: The most related models allowed.
///   - originalName: The relationship's name in an earlier schema version.
///   - inverse: The key path of the relationship on the other side, when it can't be inferred.
///   - hashModifier: A value that changes the property's schema hash without changing anything else.
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option...,
    deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0,
    originalName: String? = nil,
    inverse: AnyKeyPath? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataMacrosPlugin", type: "RelationshipMacro")

/// Tells SwiftData not to persist the annotated property. The property needs a default value.
@attached(peer)
public macro Transient() = #externalMacro(module: "SwiftDataMacrosPlugin", type: "TransientMacro")

/// Specifies the key paths whose values must be unique across all models of a type, alone or in groups.
///
/// Inserting a model whose values match a stored model's in any group updates that stored model instead (an
/// upsert), as `@Attribute(.unique)` does. A group with a `nil` member matches nothing, as in SQL's `UNIQUE`.
///
/// ```swift
/// @Model final class Person {
///     #Unique<Person>([\.email], [\.givenName, \.familyName])
///     var email: String
///     var givenName: String
///     var familyName: String
/// }
/// ```
@freestanding(declaration, names: named(_$swiftDataUniquenessConstraints))
public macro Unique<T: PersistentModel>(_ constraints: [PartialKeyPath<T>]...) =
    #externalMacro(module: "SwiftDataMacrosPlugin", type: "UniqueMacro")

/// Specifies the key paths SwiftData indexes, alone or in groups, to speed up filtering and sorting.
@freestanding(declaration, names: named(_$swiftDataIndices))
public macro Index<T: PersistentModel>(_ indices: [PartialKeyPath<T>]...) =
    #externalMacro(module: "SwiftDataMacrosPlugin", type: "IndexMacro")

/// Specifies typed indexes. On Linux both `.binary` and `.rtree` indexes are SQLite B-tree indexes.
@freestanding(declaration, names: named(_$swiftDataIndices))
public macro Index<T: PersistentModel>(_ indices: Schema.Index<T>.Types<T>...) =
    #externalMacro(module: "SwiftDataMacrosPlugin", type: "IndexMacro")

/// Turns an actor into a `ModelActor` with its own model context over a container.
///
/// The actor gets `modelContainer`, `modelExecutor` and `init(modelContainer:)`; its work runs on a
/// `DefaultSerialModelExecutor` that owns the context.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "SwiftDataMacrosPlugin", type: "ModelActorMacro")
