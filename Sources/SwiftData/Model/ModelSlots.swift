#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The slots of a model's persisted properties: one `Any` per property, in `entity.storedProperties` order, in
/// memory its backing data owns.
///
/// An `[Any]` in the backing data cost every property read a retain and release of the array (the class's property
/// could change during the read), and every write a uniqueness check; a first write after a copy copied all slots.
/// These slots are a plain allocation: reading one copies only the value, writing one replaces it in place.
///
/// `ModelStorage` owns the memory and frees it in its `deinit` (`release()`). A `ModelSlots` value is a view of
/// that memory: copy values out of it, never keep the view beyond the backing data.
struct ModelSlots {
    private var base: UnsafeMutablePointer<Any>?
    private(set) var count = 0

    /// No slots yet.
    init() {}

    /// `count` slots, each initialized with the value `value(index)` gives, in order. Nothing is left allocated
    /// when `value` throws.
    init(count: Int, _ value: (Int) throws -> Any) rethrows {
        let base = Self.allocate(count)
        var initialized = 0
        do {
            while initialized < count {
                (base + initialized).initialize(to: try value(initialized))
                initialized += 1
            }
        } catch {
            base.deinitialize(count: initialized)
            free(base)
            throw error
        }
        self.base = base
        self.count = count
    }

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> Any {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "slot \(index) out of \(count)")
            return base.unsafelyUnwrapped[index]
        }
        @inline(__always) nonmutating set {
            precondition(index >= 0 && index < count, "slot \(index) out of \(count)")
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    /// Makes `total` slots: the current values first, then `filler` in the new ones.
    mutating func grow(to total: Int, filling filler: Any) {
        guard total > count else { return }
        let grown = Self.allocate(total)
        if let base {
            grown.moveInitialize(from: base, count: count)
            free(base)
        }
        (grown + count).initialize(repeating: filler, count: total - count)
        base = grown
        count = total
    }

    /// Sets each slot to the value of the same slot of `other`, which has as many.
    func assign(from other: ModelSlots) {
        precondition(other.count == count, "slots of different entities")
        guard let base, let source = other.base else { return }
        base.update(from: source, count: count)
    }

    /// Frees the slots' memory; the slots are empty afterwards.
    mutating func release() {
        guard let base else { return }
        base.deinitialize(count: count)
        free(base)
        self.base = nil
        count = 0
    }

    /// Memory for `count` slots, from `malloc`: `UnsafeMutablePointer.allocate` went through `posix_memalign`,
    /// an eighth of the time spent making a fetched model. `malloc`'s alignment is enough for `Any`.
    private static func allocate(_ count: Int) -> UnsafeMutablePointer<Any> {
        guard let memory = malloc(max(1, count) * MemoryLayout<Any>.stride) else {
            fatalError("out of memory for \(count) model slots")
        }
        return memory.bindMemory(to: Any.self, capacity: count)
    }
}
