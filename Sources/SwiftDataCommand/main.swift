import Foundation
import SwiftDataTool

// The `swiftdata` executable: the commands live in SwiftDataTool, where tests call them directly.
let result = SwiftDataTool.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.output.utf8))
FileHandle.standardError.write(Data(result.errors.utf8))
exit(result.status)
