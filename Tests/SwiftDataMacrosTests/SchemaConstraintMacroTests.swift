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

@Suite struct ModelActorMacroTests {
    @Test func expandsIntoExecutorContainerAndInitializer() {
        assertExpansion(
            """
            @ModelActor
            actor Importer {
            }
            """,
            expands: #"""
                actor Importer {

                    nonisolated let modelExecutor: any SwiftData.ModelExecutor

                    nonisolated let modelContainer: SwiftData.ModelContainer

                    init(modelContainer: SwiftData.ModelContainer) {
                        let modelContext = SwiftData.ModelContext(modelContainer)
                        self.modelExecutor = SwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }

                extension Importer: SwiftData.ModelActor {
                }
                """#
        )
    }

    @Test func rejectsNonActors() {
        assertExpansion(
            "@ModelActor\nclass Importer {\n}",
            diagnostics: ["@ModelActor: '@ModelActor' can only be applied to an actor; 'class' is not supported"]
        )
    }
}
