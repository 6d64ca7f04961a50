/// The saved models a context holds, by identifier, without retaining them.
///
/// An open-addressing hash table of unretained backing data. A model holds the only lasting reference to its
/// backing data, so the backing data is released exactly when the model is, and its `deinit` removes it here
/// (see `ModelStorage.deinit`); anything else that keeps backing data must also keep its model. This replaces a
/// dictionary of weak references: the weak references gave every model a side table, and hashing identifiers
/// with `Hasher` cost as much again, on every fetch, save and release.
///
/// Identifiers hash by their primary key and entity name length (see `home(of:)`); each slot keeps its entry's
/// hash, so probing and removal read the backing data only to confirm a match. Equal keys of different
/// entities are told apart by comparing identifiers. Removal shifts later entries back, so no tombstones build up.
struct ModelRegistry {
    private struct Slot {
        var hash: UInt64 = 0
        var storage: Unmanaged<ModelStorage>?
    }

    private var slots = ContiguousArray(repeating: Slot(), count: 16)
    private var shift: UInt64 = 60
    private(set) var count = 0
    /// How many registrations there have been in all: unchanged across some code, it tells that the code
    /// registered nothing, so the identifiers it found unregistered still are.
    private(set) var registrations = 0

    /// The backing data of the registered model with an identifier.
    subscript(identifier: PersistentIdentifier) -> ModelStorage? {
        position(of: identifier).map { slots[$0].storage!.takeUnretainedValue() }
    }

    /// Registers backing data under its identifier and returns the backing data registered there before, if any.
    @discardableResult
    mutating func insert(_ storage: ModelStorage) -> ModelStorage? {
        if let position = position(of: storage.identifier) {
            let previous = slots[position].storage!.takeUnretainedValue()
            previous.isRegistered = false
            storage.isRegistered = true
            slots[position].storage = Unmanaged.passUnretained(storage)
            registrations &+= 1
            return previous
        }
        insertNew(storage)
        return nil
    }

    /// Registers backing data whose identifier is not registered, without looking for it first.
    mutating func insertNew(_ storage: ModelStorage) {
        let identifier = storage.identifier
        assert(position(of: identifier) == nil, "\(identifier) is registered already")
        storage.isRegistered = true
        if (count + 1) * 2 > slots.count { grow(to: slots.count * 2) }
        let hash = Self.hash(of: identifier)
        var position = home(of: hash)
        while slots[position].storage != nil { position = (position + 1) & (slots.count - 1) }
        slots[position] = Slot(hash: hash, storage: Unmanaged.passUnretained(storage))
        count += 1
        registrations &+= 1
    }

    /// Removes the model registered under an identifier, if any.
    mutating func removeValue(forKey identifier: PersistentIdentifier) {
        if let position = position(of: identifier) { remove(at: position) }
    }

    /// Removes backing data that is being released. The probe compares backing data by identity: it is the one
    /// registered, and comparing identifiers on the way cost more than the probe.
    mutating func remove(_ storage: ModelStorage) {
        guard storage.isRegistered else { return }
        let wanted = Unmanaged.passUnretained(storage).toOpaque()
        let mask = slots.count - 1
        var position = home(of: Self.hash(of: storage.identifier))
        while let occupant = slots[position].storage {
            if occupant.toOpaque() == wanted {
                remove(at: position)
                return
            }
            position = (position + 1) & mask
        }
        // Its identifier changed after it was registered (`BackingData.persistentModelID` is settable).
        if let position = slots.firstIndex(where: { $0.storage?.toOpaque() == wanted }) { remove(at: position) }
    }

    /// The registered backing data, retained, for work on every registered model.
    var allStorages: [ModelStorage] {
        slots.compactMap { $0.storage?.takeUnretainedValue() }
    }

    /// Makes room for `total` models without growing again.
    mutating func reserveCapacity(_ total: Int) {
        var capacity = slots.count
        while total * 2 > capacity { capacity *= 2 }
        if capacity > slots.count { grow(to: capacity) }
    }

    // MARK: - Table

    /// The key, with the entity name's length in the top bits to set apart equal keys of different entities.
    private static func hash(of identifier: PersistentIdentifier) -> UInt64 {
        // A custom store's key that is not an integer hashes as a whole; SQLite's integer keys are their own hash.
        let key = UInt64(bitPattern: identifier.primaryKey ?? Int64(identifier.hashValue))
        return key ^ UInt64(identifier.entityName.utf8.count) << 56
    }

    /// The first slot to probe. Runs of 16 consecutive keys of an entity share a block of 16 slots (the low bits
    /// of the key pick the slot in the block): a fetch registers and looks up rows in key order, and this keeps
    /// those accesses on a few cache lines instead of one line per model.
    private func home(of hash: UInt64) -> Int {
        let block = Int(truncatingIfNeeded: Self.mix(hash >> 4) >> shift) & ~15
        return (block | Int(truncatingIfNeeded: hash & 15)) & (slots.count - 1)
    }

    private static func mix(_ value: UInt64) -> UInt64 { value &* 0x9E37_79B9_7F4A_7C15 }

    private func position(of identifier: PersistentIdentifier) -> Int? {
        guard !identifier.isTemporary else { return nil }
        let hash = Self.hash(of: identifier)
        var position = home(of: hash)
        while let occupant = slots[position].storage {
            if slots[position].hash == hash, occupant.takeUnretainedValue().identifier == identifier { return position }
            position = (position + 1) & (slots.count - 1)
        }
        return nil
    }

    private mutating func remove(at position: Int) {
        slots[position].storage!.takeUnretainedValue().isRegistered = false
        slots[position] = Slot()
        count -= 1
        // Backward-shift deletion: move each later entry of the run into the hole when its home allows it.
        let mask = slots.count - 1
        var hole = position
        var next = (position + 1) & mask
        while slots[next].storage != nil {
            let home = home(of: slots[next].hash)
            if (hole - home) & mask < (next - home) & mask {
                slots[hole] = slots[next]
                slots[next] = Slot()
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    private mutating func grow(to capacity: Int) {
        let old = slots
        slots = ContiguousArray(repeating: Slot(), count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        for slot in old where slot.storage != nil {
            var position = home(of: slot.hash)
            while slots[position].storage != nil { position = (position + 1) & (capacity - 1) }
            slots[position] = slot
        }
    }
}
