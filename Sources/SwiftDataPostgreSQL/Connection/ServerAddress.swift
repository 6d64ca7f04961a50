package import Foundation

/// A PostgreSQL connection URI as messages show it: the password, wherever the URI carries one, replaced.
package enum ServerAddress {
    /// The URI without its password: neither the `user:password@` form nor a `password=` parameter survives.
    package static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "an unreadable URL"
        }
        if components.password != nil { components.password = "***" }
        if let items = components.queryItems {
            components.queryItems = items.map {
                // `password`, `sslpassword` and any other secret libpq may come to read.
                $0.name.lowercased().contains("password") ? URLQueryItem(name: $0.name, value: "***") : $0
            }
        }
        return components.string ?? "an unreadable URL"
    }
}
