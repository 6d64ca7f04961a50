public import Foundation
public import SwiftData

/// An error a ``JSONStore`` throws.
public enum JSONStoreError: Error, CustomStringConvertible {
    /// The configuration's `fileURL` is not a file URL.
    case notAFileURL(URL)
    /// A save updated a model the file does not hold (another program deleted it, or the file was replaced).
    case modelNotFound(PersistentIdentifier)

    /// What went wrong.
    public var description: String {
        switch self {
        case .notAFileURL(let url): "\(url) is not a file URL"
        case .modelNotFound(let identifier): "the store holds no model \(identifier) to update"
        }
    }
}
