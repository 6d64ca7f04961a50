internal import SwiftData

/// The filter language of `dump --where`, translated to parameterized SQL the way the library translates
/// `#Predicate`s: values are bound, never spliced, and strings compare with the columns' Swift collation.
///
/// ```
/// expression := or
/// or         := and ("||" and)*
/// and        := not ("&&" not)*
/// not        := "!" not | "(" expression ")" | comparison
/// comparison := NAME ("==" | "!=" | "<" | "<=" | ">" | ">=") VALUE
///             | NAME ("contains" | "startsWith") STRING
/// VALUE      := STRING | NUMBER | true | false | nil
/// ```
///
/// A NAME is a column: an attribute, a composite attribute's field (`address.city`), or a to-one relationship
/// (whose value is the related row's key). STRING is in double quotes with `\"` and `\\` escapes. `== nil` and
/// `!= nil` test for a missing value; `!=` is true for a missing value, as `!=` on an optional is in Swift.
/// Booleans are stored as 1 and 0, dates as seconds since 2001-01-01.
struct FilterExpression {
    /// The SQL condition, with `?` placeholders.
    let sql: String
    /// The values of the placeholders, in order.
    let bindings: [SQLValue]

    /// Parses an expression against the columns it may name.
    init(_ text: String, columns: Set<String>) throws {
        var parser = Parser(tokens: try Self.tokens(of: text), columns: columns)
        var bindings: [SQLValue] = []
        sql = try parser.parseOr(&bindings)
        guard parser.isAtEnd else { throw ToolError("--where: unexpected '\(parser.current!)'") }
        self.bindings = bindings
    }

    private enum Token: Equatable, CustomStringConvertible {
        case name(String)
        case string(String)
        case number(String)
        case symbol(String)

        var description: String {
            switch self {
            case .name(let text), .number(let text), .symbol(let text): text
            case .string(let text): "\"\(text)\""
            }
        }
    }

    private static func tokens(of text: String) throws -> [Token] {
        var tokens: [Token] = []
        var characters = Array(text)[...]
        let symbols = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")"]
        while let first = characters.first {
            if first.isWhitespace {
                characters.removeFirst()
            } else if first == "\"" {
                characters.removeFirst()
                var value = ""
                while true {
                    guard let next = characters.popFirst() else { throw ToolError("--where: a string is not closed") }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = characters.popFirst() else {
                            throw ToolError("--where: a string ends in a backslash")
                        }
                        value.append(escaped)
                    } else {
                        value.append(next)
                    }
                }
                tokens.append(.string(value))
            } else if let symbol = symbols.first(where: { characters.starts(with: $0) }) {
                characters.removeFirst(symbol.count)
                tokens.append(.symbol(symbol))
            } else if first.isNumber || first == "-" || first == "." {
                let number = characters.prefix { $0.isNumber || "-+.eE".contains($0) }
                characters.removeFirst(number.count)
                tokens.append(.number(String(number)))
            } else if first.isLetter || first == "_" {
                let name = characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                characters.removeFirst(name.count)
                tokens.append(.name(String(name)))
            } else {
                throw ToolError("--where: unexpected '\(first)'")
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        let columns: Set<String>
        var position = 0

        init(tokens: [Token], columns: Set<String>) {
            self.tokens = tokens
            self.columns = columns
        }

        var isAtEnd: Bool { position == tokens.count }
        var current: Token? { isAtEnd ? nil : tokens[position] }

        mutating func take(_ symbol: String) -> Bool {
            guard current == .symbol(symbol) else { return false }
            position += 1
            return true
        }

        mutating func parseOr(_ bindings: inout [SQLValue]) throws -> String {
            var parts = [try parseAnd(&bindings)]
            while take("||") { parts.append(try parseAnd(&bindings)) }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " OR ") + ")"
        }

        mutating func parseAnd(_ bindings: inout [SQLValue]) throws -> String {
            var parts = [try parseNot(&bindings)]
            while take("&&") { parts.append(try parseNot(&bindings)) }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
        }

        mutating func parseNot(_ bindings: inout [SQLValue]) throws -> String {
            if take("!") { return "NOT (\(try parseNot(&bindings)))" }
            if take("(") {
                let inner = try parseOr(&bindings)
                guard take(")") else { throw ToolError("--where: a '(' is not closed") }
                return inner
            }
            return try parseComparison(&bindings)
        }

        mutating func parseComparison(_ bindings: inout [SQLValue]) throws -> String {
            guard case .name(let name)? = current else {
                throw ToolError("--where: expected a property name, found \(current.map { "'\($0)'" } ?? "the end")")
            }
            position += 1
            guard columns.contains(name) else {
                throw ToolError("--where: no column '\(name)' (columns: \(columns.sorted().joined(separator: ", ")))")
            }
            let column = quotedIdentifier(name)
            if case .name(let function)? = current, function == "contains" || function == "startsWith" {
                position += 1
                guard case .string(let text)? = current else { throw ToolError("--where: \(function) takes a string") }
                position += 1
                bindings.append(.text(text))
                let call = function == "contains" ? "swiftdata_contains" : "swiftdata_starts_with"
                return "(\(column) IS NOT NULL AND \(call)(\(column), ?))"
            }
            guard case .symbol(let operation)? = current, ["==", "!=", "<", "<=", ">", ">="].contains(operation) else {
                throw ToolError("--where: expected a comparison after '\(name)'")
            }
            position += 1
            guard let token = current else { throw ToolError("--where: expected a value after '\(operation)'") }
            position += 1
            let value = try Self.value(of: token)
            if value == .null {
                switch operation {
                case "==": return "\(column) IS NULL"
                case "!=": return "\(column) IS NOT NULL"
                default: throw ToolError("--where: nil can only be compared with == and !=")
                }
            }
            bindings.append(value)
            switch operation {
            case "==": return "\(column) = ?"
            case "!=": return "\(column) IS NOT ?"
            default: return "\(column) \(operation) ?"
            }
        }

        static func value(of token: Token) throws -> SQLValue {
            switch token {
            case .string(let text): return .text(text)
            case .name("true"): return .integer(1)
            case .name("false"): return .integer(0)
            case .name("nil"): return .null
            case .number(let text):
                if let integer = Int64(text) { return .integer(integer) }
                if let real = Double(text) { return .real(real) }
                throw ToolError("--where: '\(text)' is not a number")
            default: throw ToolError("--where: '\(token)' is not a value")
            }
        }
    }
}
