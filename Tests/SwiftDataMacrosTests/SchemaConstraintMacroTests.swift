import Testing

@Suite struct SchemaConstraintMacroTests {
    @Test func uniqueGroupsBecomeAStaticMemberWithRootedKeyPaths() {
        assertExpansion(
            """
            final class Person {
                #Unique<Person>([\\.email], [\\.givenName, \\.familyName])
            }
            """,
            expands: #"""
                final class Person {
                    static var _$swiftDataUniquenessConstraints: [[Swift.AnyKeyPath]] {
                        [[\Person.email], [\Person.givenName, \Person.familyName]]
                    }
                }
                """#
        )
    }

    @Test func typedIndexesUnwrapTheirKeyPaths() {
        assertExpansion(
            """
            final class Place {
                #Index<Place>(.binary([\\.name]), .rtree([\\.latitude, \\.longitude]))
            }
            """,
            expands: #"""
                final class Place {
                    static var _$swiftDataIndices: [[Swift.AnyKeyPath]] {
                        [[\Place.name], [\Place.latitude, \Place.longitude]]
                    }
                }
                """#
        )
    }
}
