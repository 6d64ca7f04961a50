extension Schema.Entity {
    /// One persisted property with what the runtime needs to read, write and store it.
    package final class Property: @unchecked Sendable {
        // @unchecked: immutable after the registry publishes the entity (see `RelationshipInfo`).
        package let index: Int
        package let name: String
        package let keyPath: AnyKeyPath
        package let valueType: any Any.Type
        package let defaultValue: Any?
        /// The completed `Schema.Attribute` or `Schema.Relationship`.
        package let schemaProperty: any SchemaProperty
        /// How attribute values map to SQLite, or nil for relationships and unsupported types.
        package let codec: ValueCodec?
        /// Relationship details, or nil for attributes.
        package let relationshipInfo: RelationshipInfo?
        /// True when the value type is an `Optional`.
        package let isOptional: Bool
        /// `nil` of the property's type, for optional properties.
        package let noneValue: Any
        private let optionalType: (any OptionalValue.Type)?
        /// The property's type as a collection of models, for to-many relationships; looked up once, as the cast
        /// is a search of the type's conformances.
        private let collectionType: (any ModelCollectionValue.Type)?
        /// For a to-one relationship: its target in a value of the property (a model, or an optional one), found
        /// with a cast to the destination class, a comparison of class metadata, where a cast to
        /// `any PersistentModel` searched the value's conformances on every call.
        private let toOneTarget: ((Any) -> (any PersistentModel)?)?
        /// True for attributes declared with `.externalStorage`. Stored, since every save asks it of every value.
        package let usesExternalStorage: Bool
        /// True for attributes stored as a composite (one column per leaf), optional or not.
        package let isComposite: Bool
        /// True for a property declared with `let`: SwiftData stores it at insert and reads it back once, when a
        /// fetched model is made, so a fetch always reads it.
        package let isConstant: Bool

        package init(index: Int, metadata: Schema.PropertyMetadata) {
            self.index = index
            self.name = metadata.name
            self.keyPath = metadata.keypath
            self.isConstant = !Self.isWritable(metadata.keypath)
            let valueType = type(of: metadata.keypath).valueType
            self.valueType = valueType
            self.defaultValue = metadata.defaultValue
            self.optionalType = valueType as? any OptionalValue.Type
            self.isOptional = optionalType != nil
            self.noneValue = optionalType?.noneValue ?? ()
            self.collectionType = valueType as? any ModelCollectionValue.Type

            let unwrapped = unwrappedValueType(valueType)
            let destinationType: (any PersistentModel.Type)?
            let isToMany: Bool
            if let collection = unwrapped as? any ModelCollectionValue.Type {
                destinationType = collection.elementType
                isToMany = true
            } else {
                destinationType = unwrapped as? any PersistentModel.Type
                isToMany = false
            }

            if let destinationType {
                let declared = metadata.metadata as? Schema.Relationship ?? Schema.Relationship()
                let relationship = Schema.Relationship(
                    copying: declared,
                    name: metadata.name,
                    keypath: metadata.keypath,
                    valueType: valueType,
                    destination: String(describing: destinationType)
                )
                self.schemaProperty = relationship
                self.relationshipInfo = RelationshipInfo(
                    declaration: relationship,
                    destinationType: destinationType,
                    isToMany: isToMany
                )
                self.codec = nil
                self.toOneTarget = isToMany ? nil : Self.targetCast(to: destinationType)
            } else {
                let declared = metadata.metadata as? Schema.Attribute ?? Schema.Attribute()
                let codec: ValueCodec?
                if let transformer = declared.options.lazy.compactMap({ $0.makeTransformer() }).first {
                    let transformed = ValueCodec.transformed(TransformerBox(transformer: transformer))
                    if let optional = valueType as? any OptionalValue.Type {
                        codec = .optional(transformed, wrapping: optional.wrapping, none: optional.noneValue)
                    } else {
                        codec = transformed
                    }
                } else {
                    codec = ValueCodec.make(for: valueType, storingEncodedForm: declared.isCodable)
                }
                self.schemaProperty = declared.completed(
                    name: metadata.name,
                    valueType: valueType,
                    defaultValue: metadata.defaultValue,
                    leaves: codec?.compositeLeaves
                )
                self.relationshipInfo = nil
                self.toOneTarget = nil
                self.codec = codec
            }
            self.usesExternalStorage =
                (schemaProperty as? Schema.Attribute)?.options.contains(.externalStorage) ?? false
            if case .composite = codec?.unwrappedCodec { self.isComposite = true } else { self.isComposite = false }
        }

        package var isRelationship: Bool { relationshipInfo != nil }

        /// True when a key path can write its property: a `var` of a class. A persisted `let` cannot be written.
        private static func isWritable(_ keyPath: AnyKeyPath) -> Bool {
            func root<Root>(_: Root.Type) -> Bool {
                func value<Value>(_: Value.Type) -> Bool { keyPath is ReferenceWritableKeyPath<Root, Value> }
                return _openExistential(type(of: keyPath).valueType, do: value)
            }
            return _openExistential(type(of: keyPath).rootType, do: root)
        }

        // MARK: - Relationship Values

        /// `Optional.some(model)` of this property's type.
        package func wrapOptional(_ model: any PersistentModel) -> Any {
            optionalType?.wrapping(model) ?? model
        }

        /// The slot value of a property that has no stored value to read: its declared default, else `nil` for an
        /// optional, else unset.
        package var unstoredValue: Any { defaultValue ?? (isOptional ? noneValue : ModelStorage.Unset()) }

        /// The value of an empty relationship: `nil` for to-one, an empty collection for to-many.
        package var emptyRelationshipValue: Any {
            guard let relationshipInfo, relationshipInfo.isToMany else { return noneValue }
            return makeCollection([])
        }

        /// A to-many value of this property's type holding the given models.
        package func makeCollection(_ models: [any PersistentModel]) -> Any {
            guard let collectionType else { return models }
            return collectionType.makeValue(models)
        }

        /// True when a to-many value of this property holds `model`.
        package func holdsMember(_ model: AnyObject, in value: Any) -> Bool {
            guard let collectionType else { return relatedModels(in: value).contains { $0 === model } }
            return collectionType.holds(model, in: value)
        }

        /// Adds `model` at the end of a to-many value of this property, in place (see
        /// `ModelCollectionValue.append(_:to:)`).
        package func appendMember(_ model: any PersistentModel, to value: inout Any) {
            guard let collectionType else { return value = relatedModels(in: value) + [model] }
            collectionType.append(model, to: &value)
        }

        /// Removes `model` from a to-many value of this property, in place.
        package func removeMember(_ model: AnyObject, from value: inout Any) {
            guard let collectionType else { return value = relatedModels(in: value).filter { $0 !== model } }
            collectionType.remove(model, from: &value)
        }

        private static func targetCast(to destination: any PersistentModel.Type) -> (Any) -> (any PersistentModel)? {
            func cast<Destination: PersistentModel>(_: Destination.Type) -> (Any) -> (any PersistentModel)? {
                { $0 as? Destination }
            }
            return cast(destination)
        }

        /// The models a relationship value refers to.
        package func relatedModels(in value: Any) -> [any PersistentModel] {
            if let toOneTarget { return toOneTarget(value).map { [$0] } ?? [] }
            if let collectionType, let models = collectionType.models(in: value) { return models }
            if let collection = value as? any ModelCollectionValue { return collection.modelElements }
            if let model = unwrappedValue(value) as? any PersistentModel { return [model] }
            return []
        }

        /// The value to keep for a relationship: an optional to-many that is `nil` becomes an empty collection, and
        /// a to-many holds each model once, where it first appears (Core Data's relationships are sets, and so are
        /// the rows that store them), however often it was appended or assigned.
        package func normalizedRelationshipValue(_ value: Any) -> Any {
            guard relationshipInfo?.isToMany == true else { return value }
            let models = relatedModels(in: value)
            guard models.count > 1 else { return makeCollection(models) }
            var seen = Set<ObjectIdentifier>(minimumCapacity: models.count)
            for model in models { seen.insert(ObjectIdentifier(model)) }
            guard seen.count < models.count else { return makeCollection(models) }
            seen.removeAll(keepingCapacity: true)
            return makeCollection(models.filter { seen.insert(ObjectIdentifier($0)).inserted })
        }
    }

    /// What the runtime knows about a relationship: destination, inverse and where its links are stored.
    package final class RelationshipInfo: @unchecked Sendable {
        // @unchecked: `destination`, `inverse` and `storage` are set once by `EntityRegistry`, under its lock,
        // before the entity is published; they are only read afterwards.
        package let declaration: Schema.Relationship
        package let destinationType: any PersistentModel.Type
        package let isToMany: Bool
        package unowned(unsafe) var destination: Schema.Entity!
        package unowned(unsafe) var inverse: Property?
        /// For a to-one that several to-many relationships of its destination name as their inverse: those
        /// relationships. Such a to-one has no `inverse` of its own: setting it takes the model out of the old
        /// owner's relationships and into none of the new owner's, since nothing says which one it would join.
        package var sharedInverses: [Property] = []
        /// True for a to-many relationship whose inverse other to-many relationships name too: its members are
        /// kept in a join table of its own, so each relationship keeps its own.
        package var sharesInverse = false
        /// True for a relationship that several relationships of its destination name as their inverse: a model
        /// may join its members once through each of them.
        package var isInverseOfSeveral = false
        package var storage: RelationshipStorage = .foreignKey(column: "")

        /// The relationships on the other side that hold this one's owner: the inverse, or the relationships
        /// that share this to-one as their inverse. Set once with the storage, so reading it allocates nothing.
        package var inverseSides: [Property] = []

        /// True when each related model's own to-one relationship (the inverse) names its owner, so a store finds
        /// the related models of some owners by that relationship alone.
        package var linksLiveInTargets: Bool {
            if case .inverseForeignKey = storage { return true }
            return false
        }

        package init(declaration: Schema.Relationship, destinationType: any PersistentModel.Type, isToMany: Bool) {
            self.declaration = declaration
            self.destinationType = destinationType
            self.isToMany = isToMany
        }
    }

    /// Where the links of a relationship live in SQLite.
    package enum RelationshipStorage: Sendable {
        /// A column of this entity's table holding the target's primary key.
        case foreignKey(column: String)
        /// A column of the destination's table (the inverse to-one) holding this model's primary key.
        case inverseForeignKey(column: String)
        /// A join table with one row per link; `ownerColumn` holds this model's key.
        case joinTable(name: String, ownerColumn: String, targetColumn: String)
    }
}
