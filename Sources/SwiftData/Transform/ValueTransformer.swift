#if !canImport(Darwin)
    /// The name a value transformer is registered under.
    public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
        /// The name.
        public var rawValue: String

        /// Creates a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Creates a name.
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// Converts values from one representation to another, with Foundation's API, for platforms whose Foundation
    /// lacks it. `@Attribute(.transformable(by:))` stores a property through one: `transformedValue(_:)` turns the
    /// property's value into `Data` (or a `String`) to store, `reverseTransformedValue(_:)` turns it back.
    ///
    /// ```swift
    /// final class ColorTransformer: ValueTransformer {
    ///     override func transformedValue(_ value: Any?) -> Any? { (value as? Color).map { Data($0.hex.utf8) } }
    ///     override func reverseTransformedValue(_ value: Any?) -> Any? {
    ///         (value as? Data).map { Color(hex: String(decoding: $0, as: UTF8.self)) }
    ///     }
    /// }
    /// ```
    open class ValueTransformer {
        /// Creates a transformer.
        public required init() {}

        /// The class of the values `transformedValue(_:)` returns.
        open class func transformedValueClass() -> AnyClass { ValueTransformer.self }

        /// True when `reverseTransformedValue(_:)` is supported. The default is true.
        open class func allowsReverseTransformation() -> Bool { true }

        /// The transformed form of a value. The default returns the value unchanged.
        open func transformedValue(_ value: Any?) -> Any? { value }

        /// The original form of a transformed value. The default returns the value unchanged when reverse
        /// transformation is allowed, and nil otherwise.
        open func reverseTransformedValue(_ value: Any?) -> Any? {
            Self.allowsReverseTransformation() ? value : nil
        }

        // MARK: - Registering Transformers

        /// Registers a transformer under a name, or removes the registration when `transformer` is nil.
        public class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
            registry.withLock { $0[name.rawValue] = transformer.map(TransformerBox.init(transformer:)) }
        }

        /// The transformer registered under a name.
        public class func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
            registry.withLock { $0[name.rawValue]?.transformer }
        }

        /// The names of every registered transformer.
        public class func valueTransformerNames() -> [NSValueTransformerName] {
            registry.withLock { $0.keys.sorted().map(NSValueTransformerName.init(rawValue:)) }
        }

        private static let registry = Locked<[String: TransformerBox]>([:])
    }

#endif
