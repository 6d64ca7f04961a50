extension Schema {
    /// A persisted, non-relationship property of an entity.
    public class Attribute: SchemaProperty, Hashable, CustomStringConvertible, @unchecked Sendable {
        // @unchecked: every stored property is a `let` set at creation; `defaultValue` is only read.

        /// Options that change how SwiftData stores an attribute.
        public struct Option: Hashable, Sendable, CustomStringConvertible {
            enum Kind: Hashable, Sendable {
                case unique, externalStorage, spotlight, allowsCloudEncryption, preserveValueOnDeletion, ephemeral
                case codable
                case transformableType(ObjectIdentifier, String)
                case transformableName(String)
                /// A transformer type known by its name only: the option of a decoded schema.
                case transformableTypeNamed(String)
            }
            let kind: Kind
            /// The transformer type of `.transformable(by:)`, kept to make instances; not part of equality.
            var transformerType: TransformerType? = nil

            init(kind: Kind, transformerType: TransformerType? = nil) {
                self.kind = kind
                self.transformerType = transformerType
            }

            /// Options are equal when they are the same behaviour (and, for transformers, the same transformer). A
            /// decoded `.transformable(by:)` option of a transformer type equals the options of types with its name.
            public static func == (lhs: Option, rhs: Option) -> Bool {
                switch (lhs.kind, rhs.kind) {
                case (.transformableType(_, let name), .transformableTypeNamed(let other)),
                    (.transformableTypeNamed(let name), .transformableType(_, let other)):
                    name == other
                default: lhs.kind == rhs.kind
                }
            }

            /// Hashes the behaviour.
            public func hash(into hasher: inout Hasher) {
                switch kind {
                case .transformableType(_, let name), .transformableTypeNamed(let name):
                    hasher.combine("transformableType")
                    hasher.combine(name)
                default: hasher.combine(kind)
                }
            }

            /// The transformer an attribute with this option stores its values through, if any.
            func makeTransformer() -> ValueTransformer? {
                switch kind {
                case .transformableType: transformerType?.type.init()
                case .transformableName(let name), .transformableTypeNamed(let name):
                    ValueTransformer.valueTransformer(forName: NSValueTransformerName(name))
                default: nil
                }
            }

            /// Ensures the property's value is unique across all models of the same type. Inserting a model whose
            /// value matches a stored one updates that stored model instead (an upsert). `nil` matches nothing, so
            /// models whose optional unique value is `nil` are never merged.
            public static var unique: Option { Option(kind: .unique) }
            /// Stores the property's value as binary data adjacent to the model storage.
            ///
            /// A `Data` value of 128 KiB or more lives in a file of its own in `.<store name>_SUPPORT/_EXTERNAL_DATA/`
            /// beside the store file; smaller values stay in the row. Several processes may use one store, and a
            /// crash may happen at any point: no committed row ever loses its file. A save writes and syncs its files
            /// before it commits; the files it replaces are removed after it commits, once no read that found them
            /// is still reading them; files left by a crash are removed when the store next opens.
            public static var externalStorage: Option { Option(kind: .externalStorage) }
            /// Indexes the property's value for search. On Linux the index is a SQLite full-text index.
            public static var spotlight: Option { Option(kind: .spotlight) }
            /// Stores the property's value in an encrypted form when synced.
            public static var allowsCloudEncryption: Option { Option(kind: .allowsCloudEncryption) }
            /// Keeps the property's value in the persistent history when the owning model is deleted: the
            /// deletion's ``HistoryTombstone`` holds it (see ``DefaultHistoryDelete/tombstone``).
            public static var preserveValueOnDeletion: Option { Option(kind: .preserveValueOnDeletion) }
            /// Tracks changes to this property but doesn't persist them.
            public static var ephemeral: Option { Option(kind: .ephemeral) }
            /// Uses the property's codable representation to store the property.
            ///
            /// A structure or other `Codable` value is stored as its JSON encoding in one column instead of one
            /// column per field; predicates over its fields then run in memory. Values SQLite stores natively
            /// (strings, numbers, dates, data, URLs, UUIDs, decimals) and raw-value enums keep their columns.
            public static var codable: Option { Option(kind: .codable) }
            /// Transforms the property's value between an in-memory form and a persisted form with a transformer
            /// type.
            public static func transformable(by transformerType: ValueTransformer.Type) -> Option {
                Option(
                    kind: .transformableType(ObjectIdentifier(transformerType), String(describing: transformerType)),
                    transformerType: TransformerType(type: transformerType)
                )
            }
            /// Transforms the property's value with the transformer registered under a name.
            public static func transformable(by transformerName: String) -> Option {
                Option(kind: .transformableName(transformerName))
            }

            /// The option's name.
            public var description: String {
                switch kind {
                case .unique: "unique"
                case .externalStorage: "externalStorage"
                case .spotlight: "spotlight"
                case .allowsCloudEncryption: "allowsCloudEncryption"
                case .preserveValueOnDeletion: "preserveValueOnDeletion"
                case .ephemeral: "ephemeral"
                case .codable: "codable"
                case .transformableType(_, let name), .transformableTypeNamed(let name): "transformable(by: \(name))"
                case .transformableName(let name): "transformable(by: \"\(name)\")"
                }
            }
        }

        /// The attribute's name.
        public private(set) var name: String
        /// The attribute's name in an earlier schema version, or its current name.
        public var originalName: String { declaredOriginalName ?? name }
        /// The options given with `@Attribute`.
        public let options: [Option]
        /// The Swift type of the attribute's value.
        ///
        /// A decoded attribute has the standard type its encoding names (`String`, `Int`, `Date`, `UUID`… and
        /// optionals and arrays of them) and `Any.self` for other types, whose name ``Schema`` cannot turn back into
        /// a type; `isOptional` and the attribute's equality use the name, which is always kept.
        public private(set) var valueType: any Any.Type
        /// The value written in the property's declaration, or nil.
        public private(set) var defaultValue: Any?
        /// A value that changes the attribute's schema hash without changing anything else.
        public let hashModifier: String?
        let declaredOriginalName: String?
        /// The name of the value's type as an encoding names it: `String(reflecting:)` of the type.
        var valueTypeName: String { decodedValueTypeName ?? String(reflecting: valueType) }
        /// For a decoded attribute: the name of its value's type, and whether it is optional.
        private var decodedValueTypeName: String?
        private var decodedIsOptional: Bool?

        /// Creates attribute metadata, as `@Attribute` does.
        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.name = ""
            self.options = options
            self.valueType = Any.self
            self.declaredOriginalName = originalName
            self.hashModifier = hashModifier
        }

        /// Creates a fully described attribute.
        public init(
            name: String,
            originalName: String? = nil,
            options: [Option] = [],
            valueType: any Any.Type,
            defaultValue: Any? = nil,
            hashModifier: String? = nil
        ) {
            self.name = name
            self.options = options
            self.valueType = valueType
            self.defaultValue = defaultValue
            self.declaredOriginalName = originalName
            self.hashModifier = hashModifier
        }

        /// Always true.
        public var isAttribute: Bool { true }
        /// Always false.
        public var isRelationship: Bool { false }
        /// True for `.ephemeral` attributes, which are tracked but not persisted.
        public var isTransient: Bool { options.contains(.ephemeral) }
        /// True when the value type is an `Optional`.
        public var isOptional: Bool { decodedIsOptional ?? (valueType is any OptionalValue.Type) }
        /// True for `.unique` attributes.
        public var isUnique: Bool { options.contains(.unique) }
        /// True when the attribute is stored as its codable representation (the `.codable` option).
        public var isCodable: Bool { options.contains(.codable) }
        /// True for attributes stored through a value transformer.
        public var isTransformable: Bool {
            options.contains {
                switch $0.kind {
                case .transformableType, .transformableName, .transformableTypeNamed: true
                default: false
                }
            }
        }

        /// The attribute's name, type and options.
        public var description: String {
            "Attribute(name: \(name), valueType: \(valueType), options: \(options))"
        }

        /// Compares name, type (by its name, so a decoded attribute equals the one it was encoded from), options,
        /// original name and hash modifier (as declared), and the fields of composite attributes.
        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            guard lhs !== rhs else { return true }
            return lhs.name == rhs.name && lhs.valueTypeName == rhs.valueTypeName && lhs.options == rhs.options
                && lhs.declaredOriginalName == rhs.declaredOriginalName && lhs.hashModifier == rhs.hashModifier
                && (lhs as? CompositeAttribute)?.properties == (rhs as? CompositeAttribute)?.properties
        }

        /// Hashes the name and options.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(options)
        }

        // MARK: - Encoding and Decoding

        /// Decodes an attribute: its name, the name of its value's type, whether the value is optional, its
        /// options, original name and hash modifier. The default value is not encoded: a decoded attribute has none.
        ///
        /// - Throws: `DecodingError` when the data is not an encoded attribute.
        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: PropertyCodingKeys.self)
            self.name = try container.decode(String.self, forKey: .name)
            self.options = try container.decodeIfPresent([Option].self, forKey: .options) ?? []
            self.declaredOriginalName = try container.decodeIfPresent(String.self, forKey: .originalName)
            self.hashModifier = try container.decodeIfPresent(String.self, forKey: .hashModifier)
            let typeName = try container.decode(String.self, forKey: .valueType)
            self.valueType = Schema.standardType(named: typeName) ?? Any.self
            self.decodedValueTypeName = typeName
            self.decodedIsOptional = try container.decode(Bool.self, forKey: .isOptional)
        }

        /// Encodes the attribute: its name, the name of its value's type, whether the value is optional, its
        /// options, original name and hash modifier.
        ///
        /// - Throws: `EncodingError` when the encoder fails.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: PropertyCodingKeys.self)
            try container.encode(PropertyKind.attribute, forKey: .kind)
            try encodeFields(into: &container)
        }

        /// Encodes what every attribute has, composite or not.
        func encodeFields(into container: inout KeyedEncodingContainer<PropertyCodingKeys>) throws {
            try container.encode(name, forKey: .name)
            try container.encode(valueTypeName, forKey: .valueType)
            try container.encode(isOptional, forKey: .isOptional)
            if !options.isEmpty { try container.encode(options, forKey: .options) }
            try container.encodeIfPresent(declaredOriginalName, forKey: .originalName)
            try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
        }

        // MARK: - Internal

        /// A copy of this attribute completed with what `@Model` knows about the property; a composite attribute
        /// when the value is a structure stored as one column per leaf.
        func completed(name: String, valueType: any Any.Type, defaultValue: Any?, leaves: [Attribute]?) -> Attribute {
            if let leaves {
                return CompositeAttribute(
                    name: name,
                    originalName: declaredOriginalName,
                    options: options,
                    valueType: valueType,
                    defaultValue: defaultValue,
                    hashModifier: hashModifier,
                    properties: leaves
                )
            }
            return Attribute(
                name: name,
                originalName: declaredOriginalName,
                options: options,
                valueType: valueType,
                defaultValue: defaultValue,
                hashModifier: hashModifier
            )
        }
    }

    /// A transformer type carried by an option.
    struct TransformerType: @unchecked Sendable {
        // @unchecked: a class metatype, never mutated.
        let type: ValueTransformer.Type
    }

    /// An attribute whose value is a `Codable` structure, described by the attributes of its fields.
    public class CompositeAttribute: Attribute, @unchecked Sendable {
        // @unchecked: immutable after creation, like `Attribute`.
        /// The attributes of the structure's fields.
        public let properties: [Attribute]

        /// Creates a composite attribute.
        public init(
            name: String,
            originalName: String? = nil,
            options: [Option] = [],
            valueType: any Any.Type,
            defaultValue: Any? = nil,
            hashModifier: String? = nil,
            properties: [Attribute] = []
        ) {
            self.properties = properties
            super.init(
                name: name,
                originalName: originalName,
                options: options,
                valueType: valueType,
                defaultValue: defaultValue,
                hashModifier: hashModifier
            )
        }

        /// Decodes a composite attribute: what ``Schema/Attribute/init(from:)`` decodes, and the attributes of the
        /// structure's fields.
        ///
        /// - Throws: `DecodingError` when the data is not an encoded composite attribute.
        public required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: PropertyCodingKeys.self)
            self.properties = try container.decode([CodedProperty].self, forKey: .properties).compactMap {
                $0.property as? Attribute
            }
            try super.init(from: decoder)
        }

        /// Encodes the composite attribute: what ``Schema/Attribute/encode(to:)`` encodes, and the attributes of the
        /// structure's fields.
        ///
        /// - Throws: `EncodingError` when the encoder fails.
        public override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: PropertyCodingKeys.self)
            try container.encode(PropertyKind.compositeAttribute, forKey: .kind)
            try encodeFields(into: &container)
            try container.encode(properties.map(CodedProperty.init), forKey: .properties)
        }
    }
}
