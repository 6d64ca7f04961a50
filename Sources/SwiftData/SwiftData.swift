// Like Apple's SwiftData, importing `SwiftData` also imports Foundation (for `#Predicate`, `SortDescriptor`, `Date`,
// `UUID`) and Observation (which the `@Model` expansion uses).
@_exported public import Foundation
@_exported public import Observation
