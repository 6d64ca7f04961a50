internal import Foundation
internal import SwiftData

extension SyncEngine {
    /// Starts syncing on its own: at once, after each save of the container's contexts, and whenever the server
    /// announces that another replica sent changes. While the server cannot be reached, the engine tries again
    /// after a delay that doubles with each failure, up to 30 seconds.
    ///
    /// Automatic sync runs until ``stopAutomaticSync()`` or until the engine is released. Saves by other processes
    /// on the same store are sent with the next sync this process makes.
    public func startAutomaticSync() {
        guard automaticSync == nil else { return }
        let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let container = self.container
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.didSave, object: nil, queue: nil
        ) { notification in
            // Posted on the thread of the context that saved, which may read the context there.
            guard let context = notification.object as? ModelContext, context.container === container,
                context.author != SyncEngine.author
            else { return }
            continuation.yield()
        }
        let rounds = Task { [weak self] in
            for await _ in wakeUps {
                guard let engine = self else { return }
                await engine.syncRound(wakingUp: continuation)
            }
        }
        let listening = Task { [weak self] in
            var failures = 0
            var isListening = false
            var listener: (any SyncTransport)?
            while !Task.isCancelled {
                guard let engine = self else { return }
                do {
                    // A transport of its own: the rounds' one is replaced when it fails.
                    let transport: any SyncTransport
                    if let listener {
                        transport = listener
                    } else {
                        transport = try await engine.server.makeTransport(account: engine.account)
                    }
                    listener = transport
                    let announced = try await transport.waitForChanges(timeout: 5)
                    // Once listening (again), a round catches up on what was sent before the listening began.
                    if announced || !isListening { continuation.yield() }
                    isListening = true
                    failures = 0
                } catch {
                    isListening = false
                    await listener?.close()
                    listener = nil
                    failures += 1
                    try? await Task.sleep(for: Self.retryDelay(afterFailures: failures))
                }
            }
        }
        automaticSync = AutomaticSync(
            observer: SendableObserver(observer), rounds: rounds, listening: listening, wakeUps: continuation)
        continuation.yield()
    }

    /// Stops the automatic sync ``startAutomaticSync()`` started; a sync under way finishes first.
    public func stopAutomaticSync() {
        guard let automaticSync else { return }
        NotificationCenter.default.removeObserver(automaticSync.observer.observer)
        automaticSync.wakeUps.finish()
        automaticSync.rounds.cancel()
        automaticSync.listening.cancel()
        self.automaticSync = nil
    }

    // MARK: - Internal

    /// The tasks and observer of automatic sync.
    struct AutomaticSync {
        let observer: SendableObserver
        let rounds: Task<Void, Never>
        let listening: Task<Void, Never>
        let wakeUps: AsyncStream<Void>.Continuation
    }

    /// A notification observer token, which `NotificationCenter` hands out as a non-`Sendable` object.
    struct SendableObserver: @unchecked Sendable {
        // @unchecked: the token is only passed back to `removeObserver`, which is thread-safe.
        let observer: any NSObjectProtocol
        init(_ observer: any NSObjectProtocol) { self.observer = observer }
    }

    /// One automatic sync: send, fetch, then send what applying the fetched changes did in consequence. A failure
    /// wakes the loop again after the retry delay.
    func syncRound(wakingUp continuation: AsyncStream<Void>.Continuation) async {
        do {
            await enterSync()
            defer { leaveSync() }
            try await sendPendingChanges()
            try await fetchNewChanges()
            try await sendPendingChanges()
            automaticFailures = 0
        } catch {
            automaticFailures += 1
            let delay = Self.retryDelay(afterFailures: automaticFailures)
            Task {
                try? await Task.sleep(for: delay)
                continuation.yield()
            }
        }
    }

    /// Half a second after the first failure, doubling up to 30 seconds.
    static func retryDelay(afterFailures failures: Int) -> Duration {
        .milliseconds(min(500 << min(failures - 1, 6), 30_000))
    }
}
