internal import Foundation

/// A value guarded by a lock, with `Mutex`'s `withLock` shape.
///
/// Used instead of `Synchronization.Mutex` because on Linux `Mutex` waits on a raw futex, which the thread
/// sanitizer cannot see; it then reports every access to the guarded value as a race. `NSLock` is a pthread mutex,
/// which the sanitizer understands, so concurrency tests run clean under `--sanitize=thread`.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
