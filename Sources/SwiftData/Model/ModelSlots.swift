#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The slots of a model's persisted properties: one `Any` per property, in `entity.persistedProperties` order, in
/// memory its backing data owns.
///
/// An `[Any]` in the backing data cost every property read a retain and release of the array (the class's property
/// could change during the read), and every write a uniqueness check; a first write after a copy copied all slots.
/// These slots are a plain allocation: reading one copies only the value, writing one replaces it in place.
///
/// `ModelStorage` owns the memory and frees it in its `deinit` (`release()`). A `ModelSlots` value is a view of
/// that memory: copy values out of it, never keep the view beyond the backing data.
@usableFromInline
package struct ModelSlots {
    @usableFromInline
    private(set) var base: UnsafeMutablePointer<Any>?
    @usableFromInline
    private(set) var count = 0

    /// No slots yet.
    package init() {}

    /// `count` slots, each initialized with the value `value(index)` gives, in order. Nothing is left allocated
    /// when `value` throws.
    package init(count: Int, _ value: (Int) throws -> Any) rethrows {
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

    package var isEmpty: Bool { count == 0 }

    package subscript(index: Int) -> Any {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "slot \(index) out of \(count)")
            return base.unsafelyUnwrapped[index]
        }
        @inline(__always) nonmutating set {
            precondition(index >= 0 && index < count, "slot \(index) out of \(count)")
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    /// The value in a slot when the slot holds exactly a `Value` kept inside the slot itself; nil for anything
    /// else (a marker, another type, a value the run time boxed), which `subscript` and a cast have to read.
    ///
    /// Model accessors read through here, inlined into the model's module and specialized for the property's type:
    /// a read is a comparison of the slot's type with `Value` and a load, where reading the slot as `Any` and
    /// opening it copied and destroyed the whole existential and called the type's value witnesses.
    ///
    /// An `Any` is three words of value buffer followed by the type's metadata. The run time keeps a value in the
    /// buffer, rather than in a box it points to, exactly when the value fits the buffer's size and alignment and
    /// is bitwise takable (the ABI's "inline storage"); those are compile-time facts of a specialized `Value`.
    @inlinable
    package func inlineValue<Value>(at index: Int, as type: Value.Type) -> Value? {
        guard
            MemoryLayout<Value>.size <= Self.bufferSize, MemoryLayout<Value>.alignment <= Self.bufferAlignment,
            _isBitwiseTakable(Value.self), holds(Value.self, at: index)
        else { return nil }
        return UnsafeRawPointer(base.unsafelyUnwrapped + index).load(as: Value.self)
    }

    /// The value of a slot, moved out of it: the slot holds `ModelStorage.Unset` until it is set again, so the
    /// value is referred to by the caller alone.
    package func take(at index: Int) -> Any {
        precondition(index >= 0 && index < count, "slot \(index) out of \(count)")
        let value = (base.unsafelyUnwrapped + index).move()
        (base.unsafelyUnwrapped + index).initialize(to: ModelStorage.Unset())
        return value
    }

    /// Puts `value` in a slot that holds `ModelStorage.Unset`, and returns true; false, changing nothing, for a
    /// slot holding anything else. The marker is an empty value kept in the slot's buffer, so it is overwritten
    /// without being destroyed.
    @inlinable
    package func fill<Value>(unsetSlot index: Int, with value: Value) -> Bool {
        guard holds(ModelStorage.Unset.self, at: index) else { return false }
        (base.unsafelyUnwrapped + index).initialize(to: value)
        return true
    }

    /// True when slot `index` exists and holds a value of exactly `type`, told by the type metadata pointer that
    /// follows the `Any`'s value buffer.
    @inlinable
    package func holds(_ type: Any.Type, at index: Int) -> Bool {
        guard index >= 0, index < count else { return false }
        let held = UnsafeRawPointer(base.unsafelyUnwrapped + index).load(
            fromByteOffset: Self.bufferSize, as: UnsafeRawPointer.self)
        return held == unsafeBitCast(type, to: UnsafeRawPointer.self)
    }

    /// The size of an `Any`'s value buffer, which its type's metadata pointer follows.
    @usableFromInline
    package static var bufferSize: Int { 3 * MemoryLayout<UnsafeRawPointer>.size }

    /// The alignment of an `Any`'s value buffer.
    @usableFromInline
    package static var bufferAlignment: Int { MemoryLayout<UnsafeRawPointer>.alignment }

    /// Makes `total` slots: the current values first, then `ModelStorage.Unset` in the new ones.
    package mutating func growUnset(to total: Int) {
        guard total > count else { return }
        let grown = Self.allocate(total)
        if let base {
            grown.moveInitialize(from: base, count: count)
            free(base)
        }
        // Each new slot is made from the marker's known type, a store of its metadata; copying one `Any` filler
        // into each took a call to the run time per slot, for every new model.
        for index in count..<total { (grown + index).initialize(to: ModelStorage.Unset()) }
        base = grown
        count = total
    }

    /// Sets each slot to the value of the same slot of `other`, which has as many.
    package func assign(from other: ModelSlots) {
        precondition(other.count == count, "slots of different entities")
        guard let base, let source = other.base else { return }
        base.update(from: source, count: count)
    }

    /// Frees the slots' memory; the slots are empty afterwards.
    package mutating func release() {
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
