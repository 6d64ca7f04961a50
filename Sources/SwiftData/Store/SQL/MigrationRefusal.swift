/// A schema change that a store cannot make without inventing or losing data, with what and why.
package struct MigrationRefusal: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }

    /// A property's column type changed.
    package static func typeChanged(_ property: String, from old: String, to new: String) -> MigrationRefusal {
        MigrationRefusal("\(property) changed from \(old) to \(new); convert it in a custom migration stage")
    }

    /// A new required property without a default value, and stored rows that would need one.
    package static func newAndRequired(_ property: String, rows: Int) -> MigrationRefusal {
        MigrationRefusal(
            "\(property) is new and required, without a default value, and \(rows) stored row(s) would need one; make "
                + "it optional, give it a default, or fill it in a custom migration stage's didMigrate")
    }

    /// An optional property that became required without a default value, and stored rows that have none.
    package static func becomesRequired(_ property: String, missing: Int) -> MigrationRefusal {
        MigrationRefusal(
            "\(property) becomes required without a default value, and \(missing) stored row(s) have none; give it a "
                + "default or fill it in a custom migration stage")
    }
}
