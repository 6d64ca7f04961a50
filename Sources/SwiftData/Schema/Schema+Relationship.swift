extension Schema {
    /// A property of an entity that refers to other models.
    public class Relationship: SchemaProperty, Hashable, CustomStringConvertible, @unchecked Sendable {
        // @unchecked: every stored property is set at creation and only read afterwards.

        /// What happens to related models when the owning model is deleted.
        public enum DeleteRule: String, Codable, Hashable, Sendable, CaseIterable {
            /// Deletes any related models.
            case cascade
            /// Prevents the deletion of a model that still refers to other models through this relationship.
            case deny
            /// Makes no changes to related models; they keep referring to the deleted model.
            case noAction
            /// Removes the deleted model from related models' inverse relationship. The default.
            case nullify
        }

        /// Options that change how SwiftData manages a relationship.
        public struct Option: Hashable, Sendable {
            let name: String
            /// Ensures the relationship's value is unique across all models of the same type.
            public static var unique: Option { Option(name: "unique") }
        }

        /// The relationship's name.
        public private(set) var name: String
        /// The relationship's name in an earlier schema version, or its current name.
        public var originalName: String { declaredOriginalName ?? name }
        /// The options given with `@Relationship`.
        public let options: [Option]
        /// The rule applied to related models when the owning model is deleted.
        public let deleteRule: DeleteRule
        /// The fewest related models allowed, or nil.
        public let minimumModelCount: Int?
        /// The most related models allowed (0 means no limit), or nil.
        public let maximumModelCount: Int?
        /// The key path of the relationship on its model.
        public private(set) var keypath: AnyKeyPath?
        /// The key path of the inverse relationship, when declared.
        public private(set) var inverseKeyPath: AnyKeyPath?
        /// The name of the inverse relationship, once known.
        public internal(set) var inverseName: String?
        /// The name of the entity on the other side.
        public private(set) var destination: String
        /// A value that changes the relationship's schema hash without changing anything else.
        public let hashModifier: String?
        /// The Swift type of the relationship's value; `Any.self` for a decoded relationship, which has no model
        /// class to refer to (its `isToOneRelationship` and `isOptional` are decoded).
        public private(set) var valueType: any Any.Type
        let declaredOriginalName: String?
        /// For a decoded relationship: whether it refers to many models, and whether its value is optional.
        private var decodedIsToMany: Bool?
        private var decodedIsOptional: Bool?
        /// True when `inverse: nil` was written: the relationship has no inverse and none is inferred.
        public private(set) var isUnidirectional: Bool = false

        /// Creates relationship metadata, as `@Relationship` does.
        public init(
            _ options: Option...,
            deleteRule: DeleteRule = .nullify,
            minimumModelCount: Int? = 0,
            maximumModelCount: Int? = 0,
            originalName: String? = nil,
            inverse: AnyKeyPath? = nil,
            hashModifier: String? = nil
        ) {
            self.name = ""
            self.options = options
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.declaredOriginalName = originalName
            self.inverseKeyPath = inverse
            self.hashModifier = hashModifier
            self.destination = ""
            self.valueType = Any.self
        }

        init(
            copying other: Relationship,
            name: String,
            keypath: AnyKeyPath,
            valueType: any Any.Type,
            destination: String
        ) {
            self.name = name
            self.options = other.options
            self.deleteRule = other.deleteRule
            self.minimumModelCount = other.minimumModelCount
            self.maximumModelCount = other.maximumModelCount
            self.declaredOriginalName = other.declaredOriginalName
            self.inverseKeyPath = other.inverseKeyPath
            self.isUnidirectional = other.isUnidirectional
            self.hashModifier = other.hashModifier
            self.keypath = keypath
            self.valueType = valueType
            self.destination = destination
        }

        /// Marks the relationship as having no inverse. `@Model` calls this for `@Relationship(inverse: nil)`, since
        /// an explicit `nil` and an omitted `inverse:` look the same to the initializer.
        public func _unidirectional() -> Relationship {
            isUnidirectional = true
            return self
        }

        /// True when the relationship refers to at most one model.
        public var isToOneRelationship: Bool {
            decodedIsToMany.map { !$0 } ?? !(unwrappedValueType(valueType) is any RelationshipCollection.Type)
        }
        /// Always false.
        public var isAttribute: Bool { false }
        /// Always true.
        public var isRelationship: Bool { true }
        /// Always false.
        public var isTransient: Bool { false }
        /// True when the value type is an `Optional`.
        public var isOptional: Bool { decodedIsOptional ?? (valueType is any OptionalValue.Type) }
        /// True for `.unique` relationships.
        public var isUnique: Bool { options.contains(.unique) }

        /// The relationship's name, destination and rule.
        public var description: String {
            "Relationship(name: \(name), destination: \(destination), deleteRule: \(deleteRule))"
        }

        /// Compares name, destination, rule, inverse name, options, minimum and maximum model counts, original name
        /// and hash modifier (as declared), whether the relationship refers to one model or many, and whether its
        /// value is optional.
        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            guard lhs !== rhs else { return true }
            return lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.deleteRule == rhs.deleteRule
                && lhs.inverseName == rhs.inverseName && lhs.options == rhs.options
                && lhs.minimumModelCount == rhs.minimumModelCount && lhs.maximumModelCount == rhs.maximumModelCount
                && lhs.declaredOriginalName == rhs.declaredOriginalName && lhs.hashModifier == rhs.hashModifier
                && lhs.isToOneRelationship == rhs.isToOneRelationship && lhs.isOptional == rhs.isOptional
        }

        /// Hashes the name and destination.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(destination)
        }

        // MARK: - Encoding and Decoding

        /// Decodes a relationship: its name, destination, inverse name, delete rule, options, model counts,
        /// original name and hash modifier, and whether it refers to many models and is optional. Key paths are not
        /// encoded: a decoded relationship's `keypath` and `inverseKeyPath` are nil.
        ///
        /// - Throws: `DecodingError` when the data is not an encoded relationship.
        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: PropertyCodingKeys.self)
            self.name = try container.decode(String.self, forKey: .name)
            self.destination = try container.decode(String.self, forKey: .destination)
            self.inverseName = try container.decodeIfPresent(String.self, forKey: .inverseName)
            self.deleteRule = try container.decode(DeleteRule.self, forKey: .deleteRule)
            self.options =
                try container.decodeIfPresent([String].self, forKey: .options).map {
                    try $0.map { name in
                        guard name == Option.unique.name else {
                            throw DecodingError.dataCorruptedError(
                                forKey: .options, in: container,
                                debugDescription: "'\(name)' is not a Schema.Relationship.Option")
                        }
                        return Option.unique
                    }
                } ?? []
            self.minimumModelCount = try container.decodeIfPresent(Int.self, forKey: .minimumModelCount)
            self.maximumModelCount = try container.decodeIfPresent(Int.self, forKey: .maximumModelCount)
            self.declaredOriginalName = try container.decodeIfPresent(String.self, forKey: .originalName)
            self.hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            self.isUnidirectional = try container.decodeIfPresent(Bool.self, forKey: .isUnidirectional) ?? false
            self.decodedIsToMany = try container.decode(Bool.self, forKey: .isToMany)
            self.decodedIsOptional = try container.decode(Bool.self, forKey: .isOptional)
            self.valueType = Any.self
        }

        /// Encodes the relationship: its name, destination, inverse name, delete rule, options, model counts,
        /// original name and hash modifier, and whether it refers to many models and is optional.
        ///
        /// - Throws: `EncodingError` when the encoder fails.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: PropertyCodingKeys.self)
            try container.encode(PropertyKind.relationship, forKey: .kind)
            try container.encode(name, forKey: .name)
            try container.encode(destination, forKey: .destination)
            try container.encodeIfPresent(inverseName, forKey: .inverseName)
            try container.encode(deleteRule, forKey: .deleteRule)
            if !options.isEmpty { try container.encode(options.map(\.name), forKey: .options) }
            try container.encodeIfPresent(minimumModelCount, forKey: .minimumModelCount)
            try container.encodeIfPresent(maximumModelCount, forKey: .maximumModelCount)
            try container.encodeIfPresent(declaredOriginalName, forKey: .originalName)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
            if isUnidirectional { try container.encode(true, forKey: .isUnidirectional) }
            try container.encode(!isToOneRelationship, forKey: .isToMany)
            try container.encode(isOptional, forKey: .isOptional)
        }
    }
}
