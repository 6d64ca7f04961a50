#if !canImport(Darwin)
    // The string predicate operations that Foundation provides on Apple platforms but not on Linux. `#Predicate`
    // expands `a.localizedStandardContains(b)`, `a.caseInsensitiveCompare(b)` and `a.localizedCompare(b)` into calls
    // of these builders, so defining them here makes such predicates compile, evaluate in memory, and translate to SQL.

    extension PredicateExpressions {
        /// `root.localizedStandardContains(other)`: a case- and diacritic-insensitive, locale-aware substring test.
        public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>:
            PredicateExpression
        where Root.Output: StringProtocol, Other.Output: StringProtocol {
            /// The result type: `Bool`.
            public typealias Output = Bool
            /// The string searched.
            public let root: Root
            /// The string searched for.
            public let other: Other

            /// Creates the expression.
            public init(root: Root, other: Other) {
                self.root = root
                self.other = other
            }

            /// True when `other` occurs in `root`, ignoring case and diacritics.
            public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
                try root.evaluate(bindings).localizedStandardContains(try other.evaluate(bindings))
            }
        }

        /// `root.caseInsensitiveCompare(other)`.
        public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>:
            PredicateExpression
        where Root.Output: StringProtocol, Other.Output: StringProtocol {
            /// The result type: `ComparisonResult`.
            public typealias Output = ComparisonResult
            /// The string compared.
            public let root: Root
            /// The string compared with.
            public let other: Other

            /// Creates the expression.
            public init(root: Root, other: Other) {
                self.root = root
                self.other = other
            }

            /// The order of the strings, ignoring case.
            public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
                try root.evaluate(bindings).caseInsensitiveCompare(try other.evaluate(bindings))
            }
        }

        /// `root.localizedCompare(other)`.
        public struct StringLocalizedCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
        where Root.Output: StringProtocol, Other.Output: StringProtocol {
            /// The result type: `ComparisonResult`.
            public typealias Output = ComparisonResult
            /// The string compared.
            public let root: Root
            /// The string compared with.
            public let other: Other

            /// Creates the expression.
            public init(root: Root, other: Other) {
                self.root = root
                self.other = other
            }

            /// The order of the strings in the current locale.
            public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
                try root.evaluate(bindings).localizedCompare(try other.evaluate(bindings))
            }
        }

        /// Builds `root.localizedStandardContains(other)`.
        public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other)
            -> StringLocalizedStandardContains<Root, Other>
        {
            StringLocalizedStandardContains(root: root, other: other)
        }

        /// Builds `root.caseInsensitiveCompare(other)`.
        public static func build_caseInsensitiveCompare<Root, Other>(_ root: Root, _ other: Other)
            -> StringCaseInsensitiveCompare<Root, Other>
        {
            StringCaseInsensitiveCompare(root: root, other: other)
        }

        /// Builds `root.localizedCompare(other)`.
        public static func build_localizedCompare<Root, Other>(_ root: Root, _ other: Other)
            -> StringLocalizedCompare<Root, Other>
        {
            StringLocalizedCompare(root: root, other: other)
        }
    }

    extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
    where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
    extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
    where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
    extension PredicateExpressions.StringLocalizedCompare: StandardPredicateExpression
    where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

    extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
    extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}
    extension PredicateExpressions.StringLocalizedCompare: Sendable where Root: Sendable, Other: Sendable {}

    extension PredicateExpressions.StringLocalizedStandardContains: Codable, _BinaryStringExpression
    where Root: Codable, Other: Codable {}
    extension PredicateExpressions.StringCaseInsensitiveCompare: Codable, _BinaryStringExpression
    where Root: Codable, Other: Codable {}
    extension PredicateExpressions.StringLocalizedCompare: Codable, _BinaryStringExpression
    where Root: Codable, Other: Codable {}

    /// The shared coding of the string expressions above: their two operands, in order. An implementation detail of
    /// those types, not API.
    public protocol _BinaryStringExpression {
        /// The type of the first operand.
        associatedtype Root: Codable
        /// The type of the second operand.
        associatedtype Other: Codable
        /// The first operand.
        var root: Root { get }
        /// The second operand.
        var other: Other { get }
        /// Creates the expression from its operands.
        init(root: Root, other: Other)
    }

    extension _BinaryStringExpression {
        /// Encodes the two operands, in order.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(root)
            try container.encode(other)
        }

        /// Decodes the two operands, in order.
        public init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            self.init(root: try container.decode(Root.self), other: try container.decode(Other.self))
        }
    }
#endif
