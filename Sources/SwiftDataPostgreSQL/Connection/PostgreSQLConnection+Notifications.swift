internal import CLibPQ
internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

extension PostgreSQLConnection {
    /// Waits up to `timeout` seconds for notifications (`NOTIFY`) on the channels the connection listens to, and
    /// returns their payloads; empty when none came.
    ///
    /// - Throws: `PostgreSQLError.connectionLost` when the connection broke.
    package func notifications(waitingUpTo timeout: Double) throws -> [String] {
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw PostgreSQLError(.connectionLost, server: server, message: "no socket") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(timeout * 1000))
        guard PQconsumeInput(handle) == 1 else {
            throw PostgreSQLError(.connectionLost, server: server, message: Self.message(of: handle))
        }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }
}
