// `Schema.Attribute.Option` is `Codable`, as on Apple platforms, so code that records a schema can write its
// options out. An option is encoded as its kind, plus the transformer's name for `.transformable(by:)` and, for a
// transformer type, that it is one.

extension Schema.Attribute.Option: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind
        case transformerName
        case transformerIsType
    }

    /// Decodes an option. A transformer type cannot be found from its name on Linux: a `.transformable(by:)` option
    /// of a type decodes as an option that equals the options of types with that name, and transforms through the
    /// transformer registered under the name, if any.
    ///
    /// - Throws: `DecodingError` when the data does not name a known option.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        switch name {
        case "unique": self = .unique
        case "externalStorage": self = .externalStorage
        case "spotlight": self = .spotlight
        case "allowsCloudEncryption": self = .allowsCloudEncryption
        case "preserveValueOnDeletion": self = .preserveValueOnDeletion
        case "ephemeral": self = .ephemeral
        case "codable": self = .codable
        case "transformable":
            let transformer = try container.decode(String.self, forKey: .transformerName)
            if try container.decodeIfPresent(Bool.self, forKey: .transformerIsType) == true {
                self.init(kind: .transformableTypeNamed(transformer))
            } else {
                self = .transformable(by: transformer)
            }
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "'\(name)' is not a Schema.Attribute.Option")
        }
    }

    /// Encodes the option's kind, and the transformer's name for `.transformable(by:)`.
    ///
    /// - Throws: `EncodingError` when the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .unique: try container.encode("unique", forKey: .kind)
        case .externalStorage: try container.encode("externalStorage", forKey: .kind)
        case .spotlight: try container.encode("spotlight", forKey: .kind)
        case .allowsCloudEncryption: try container.encode("allowsCloudEncryption", forKey: .kind)
        case .preserveValueOnDeletion: try container.encode("preserveValueOnDeletion", forKey: .kind)
        case .ephemeral: try container.encode("ephemeral", forKey: .kind)
        case .codable: try container.encode("codable", forKey: .kind)
        case .transformableName(let name):
            try container.encode("transformable", forKey: .kind)
            try container.encode(name, forKey: .transformerName)
        case .transformableType(_, let name), .transformableTypeNamed(let name):
            try container.encode("transformable", forKey: .kind)
            try container.encode(name, forKey: .transformerName)
            try container.encode(true, forKey: .transformerIsType)
        }
    }
}
