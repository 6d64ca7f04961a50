/// A description of one store of a container: where it lives, which models it holds and how it may be used.
///
/// On Linux a configuration without a URL stores its file in a directory of the program's own, named after its
/// executable, as each app has its own container on Apple platforms: `$XDG_DATA_HOME/<executable>/<name>.store`
/// (`~/.local/share` when `XDG_DATA_HOME` is unset). So `ModelConfiguration()` in a program called `notes` uses
/// `~/.local/share/notes/default.store`, and two programs never open each other's default store. A
/// `groupContainer: .identifier(id)` puts the file in `$XDG_DATA_HOME/SwiftDataGroups/<id>/` instead, so that several
/// programs of one user can share it. The default name is `default`.
public struct ModelConfiguration: Hashable, Identifiable, CustomDebugStringConvertible, Sendable {
    /// Where a configuration's store file lives when it is shared between programs.
    public struct GroupContainer: Hashable, Sendable {
        let identifier: String?
        let isNone: Bool
        /// The default: no shared directory.
        public static var automatic: GroupContainer { GroupContainer(identifier: nil, isNone: false) }
        /// A directory shared by every program that names the same group.
        public static func identifier(_ groupIdentifier: String) -> GroupContainer {
            GroupContainer(identifier: groupIdentifier, isNone: false)
        }
        /// No shared directory.
        public static var none: GroupContainer { GroupContainer(identifier: nil, isNone: true) }
    }

    /// The cloud database a configuration syncs with. Accepted and recorded; syncing arrives with the sync engine.
    public struct CloudKitDatabase: Hashable, Sendable {
        let identifier: String?
        let isNone: Bool
        /// The default: the first container the app is entitled to.
        public static var automatic: CloudKitDatabase { CloudKitDatabase(identifier: nil, isNone: false) }
        /// A named private database.
        public static func `private`(_ containerIdentifier: String) -> CloudKitDatabase {
            CloudKitDatabase(identifier: containerIdentifier, isNone: false)
        }
        /// No syncing.
        public static var none: CloudKitDatabase { CloudKitDatabase(identifier: nil, isNone: true) }
    }

    /// The configuration's name, which is also its store file's name.
    public let name: String
    /// The schema of the models this configuration stores, or nil for every model of the container.
    public var schema: Schema?
    /// The location of the store file.
    public let url: URL
    /// True when the store lives in memory only.
    public let isStoredInMemoryOnly: Bool
    /// False when the store is read-only: it opens read-only and `save()` throws.
    public let allowsSave: Bool
    /// The shared directory the store lives in.
    public let groupContainer: GroupContainer
    /// The shared directory's identifier, if any.
    public var groupAppContainerIdentifier: String? { groupContainer.identifier }
    /// The cloud database the configuration names.
    public let cloudKitDatabase: CloudKitDatabase
    /// The cloud container's identifier, if one was named.
    public var cloudKitContainerIdentifier: String? { cloudKitDatabase.identifier }
    /// The configuration's identity: its name and location.
    public var id: String { isStoredInMemoryOnly ? "memory:\(name):\(memoryToken)" : url.path }
    private let memoryToken: UUID

    /// Creates a configuration that stores models in memory only, or in the default location.
    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: nil, isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// Creates a configuration for the given model types.
    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// Creates a configuration with a name, which becomes the store file's name.
    public init(
        _ name: String? = nil,
        schema: Schema? = nil,
        isStoredInMemoryOnly: Bool = false,
        allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        let name = name ?? "default"
        self.name = name
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
        self.memoryToken = UUID()
        var directory = Self.dataDirectory
        if let group = groupContainer.identifier {
            directory = directory.appendingPathComponent("SwiftDataGroups").appendingPathComponent(group)
        } else {
            directory = directory.appendingPathComponent(Self.programDirectoryName, isDirectory: true)
        }
        self.url = directory.appendingPathComponent("\(name).store")
    }

    /// Creates a configuration whose store file is at a URL.
    public init(
        _ name: String? = nil,
        schema: Schema? = nil,
        url: URL,
        allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name ?? url.deletingPathExtension().lastPathComponent
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
        self.groupContainer = .automatic
        self.cloudKitDatabase = cloudKitDatabase
        self.memoryToken = UUID()
    }

    /// Checks that the configuration's name can be a file name.
    ///
    /// - Throws: `SwiftDataError.configurationFileNameContainsInvalidCharacters` or
    ///   `SwiftDataError.configurationFileNameTooLong`.
    public func validate() throws {
        if name.contains("/") || name.contains("\u{0}") {
            throw SwiftDataError(
                .configurationFileNameContainsInvalidCharacters, "configuration name '\(name)' contains '/' or NUL")
        }
        if name.utf8.count > 240 {
            throw SwiftDataError(
                .configurationFileNameTooLong, "configuration name is \(name.utf8.count) bytes; the limit is 240")
        }
    }

    /// The configuration's name and location.
    public var debugDescription: String {
        "ModelConfiguration(name: \(name), \(isStoredInMemoryOnly ? "in memory" : url.path), allowsSave: \(allowsSave))"
    }

    /// Configurations are equal when they have the same identity.
    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool { lhs.id == rhs.id }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The name of the program's own directory under `dataDirectory`: its executable's file name.
    static var programDirectoryName: String {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent
        return name.isEmpty || name == "/" ? "SwiftData" : name
    }

    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    static var dataDirectory: URL {
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
    }
}
