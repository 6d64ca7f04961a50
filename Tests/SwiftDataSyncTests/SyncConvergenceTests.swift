import Foundation
import SwiftData
import SwiftDataSync
import Testing

/// SplitMix64: the tests' seeded random numbers, the same on every machine.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncConvergenceTests {
    /// What the test did, to check the replicas' final contents against.
    private struct Ledger {
        /// Notes a replica deleted itself; gone everywhere at the end.
        var deletedNotes = Set<String>()
        /// Folders deleted; their notes at the time, on any replica, may be gone too.
        var deletedFolders = Set<String>()
        var notesEverInDeletedFolders = Set<String>()
        var folderOfNote: [String: Set<String>] = [:]
        /// For each note's title, the replicas that wrote it and the last value each wrote.
        var titleWriters: [String: [Int: String]] = [:]
        var createdNotes = Set<String>()
    }

    /// Replicas make random inserts, edits, relationship changes and deletes while randomly offline, with random
    /// network cuts, lost answers and restarts (some in the middle of an apply); then all sync, and all hold the
    /// same models, none of which a save made and the server acknowledged is missing.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func replicasConvergeAfterRandomWorkOfflineAndRestarts(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        let replicas = try (0..<3).map { _ in try Replica(server: server.server, account: account, clock: clock) }
        var ledger = Ledger()
        var serial = 0

        for _ in 0..<400 {
            let index = Int.random(in: 0..<replicas.count, using: &random)
            let replica = replicas[index]
            let context = replica.context()
            let notes = try context.fetch(FetchDescriptor<SyncNote>(sortBy: [SortDescriptor(\.uid)]))
            let folders = try context.fetch(FetchDescriptor<SyncFolder>(sortBy: [SortDescriptor(\.uid)]))
            let labels = try context.fetch(FetchDescriptor<SyncLabel>(sortBy: [SortDescriptor(\.uid)]))
            serial += 1
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<14:
                let folder =
                    folders.isEmpty || Bool.random(using: &random) ? nil : folders.randomElement(using: &random)
                let note = SyncNote(uid: "note-\(serial)", title: "title \(serial)", folder: folder)
                context.insert(note)
                try context.save()
                ledger.createdNotes.insert(note.uid)
                ledger.titleWriters[note.uid, default: [:]][index] = note.title
                if let folder { ledger.folderOfNote[note.uid, default: []].insert(folder.uid) }
            case 14..<20:
                context.insert(SyncFolder(uid: "folder-\(serial)", name: "folder \(serial)"))
                try context.save()
            case 20..<25:
                context.insert(SyncLabel(uid: "label-\(serial)", name: "label \(serial)"))
                try context.save()
            case 25..<45:
                guard let note = notes.randomElement(using: &random) else { continue }
                if Bool.random(using: &random) {
                    note.title = "title \(serial)"
                    ledger.titleWriters[note.uid, default: [:]][index] = note.title
                } else {
                    note.body = "body \(serial)"
                }
                try context.save()
            case 45..<53:
                guard let note = notes.randomElement(using: &random) else { continue }
                let folder =
                    folders.isEmpty || Bool.random(using: &random) ? nil : folders.randomElement(using: &random)
                note.folder = folder
                if let folder { ledger.folderOfNote[note.uid, default: []].insert(folder.uid) }
                try context.save()
            case 53..<61:
                guard let note = notes.randomElement(using: &random), let label = labels.randomElement(using: &random)
                else { continue }
                var current = note.labels ?? []
                if let position = current.firstIndex(where: { $0.uid == label.uid }) {
                    current.remove(at: position)
                } else {
                    current.append(label)
                }
                note.labels = current
                try context.save()
            case 61..<65:
                guard let note = notes.randomElement(using: &random) else { continue }
                ledger.deletedNotes.insert(note.uid)
                context.delete(note)
                try context.save()
            case 65..<67:
                guard let folder = folders.randomElement(using: &random) else { continue }
                ledger.deletedFolders.insert(folder.uid)
                context.delete(folder)
                try context.save()
            case 67..<69:
                guard let label = labels.randomElement(using: &random) else { continue }
                context.delete(label)
                try context.save()
            case 69..<77:
                replica.network.isUp.toggle()
            case 77..<80:
                replica.network.loseNextAnswer()
                try? await replica.sync()
            case 80..<84:
                try replica.restart()
            case 84..<86:
                await replica.engine.interruptNextApplyAfterSaving()
                try? await replica.engine.fetchChanges()
                try replica.restart()
            default:
                try? await replica.sync()
            }
        }

        for replica in replicas {
            replica.network.isUp = true
            _ = replica.network.takeLostAnswer()
        }
        for _ in 0..<2 {
            for replica in replicas { try await replica.sync() }
        }
        let dumps = try replicas.map { try $0.dump() }
        #expect(dumps[1] == dumps[0], "seed \(seed)")
        #expect(dumps[2] == dumps[0], "seed \(seed)")

        // No acknowledged save is lost: every note nobody deleted is there, with the title of the last replica
        // that wrote it where only one did; no note somebody deleted is.
        for (note, folders) in ledger.folderOfNote where !folders.isDisjoint(with: ledger.deletedFolders) {
            ledger.notesEverInDeletedFolders.insert(note)
        }
        let context = replicas[0].context()
        let present = Dictionary(
            uniqueKeysWithValues: try context.fetch(FetchDescriptor<SyncNote>()).map { ($0.uid, $0.title) })
        for uid in ledger.deletedNotes { #expect(present[uid] == nil, "seed \(seed): \(uid) was deleted") }
        for uid in ledger.createdNotes
        where !ledger.deletedNotes.contains(uid) && !ledger.notesEverInDeletedFolders.contains(uid) {
            #expect(present[uid] != nil, "seed \(seed): \(uid) was never deleted")
            if let writers = ledger.titleWriters[uid], writers.count == 1, let title = present[uid] {
                #expect(title == writers.first?.value, "seed \(seed): \(uid)")
            }
        }
        #expect(!ledger.createdNotes.isEmpty)
    }
}

@Suite(.enabled(if: SyncTestServer.isAvailable, "sync tests need a PostgreSQL server: set SWIFTDATA_POSTGRESQL_URL"))
struct SyncLinkConvergenceTests {
    /// Replicas link and unlink one-to-one partners and move cards between trays, delete and make them, while
    /// randomly offline: all end with the same links.
    @Test(arguments: [UInt64(11), 12, 13, 14])
    func oneToOneAndNullifiedLinksConverge(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let server = try SyncTestServer()
        let account = try server.makeAccount("alice")
        let clock = TestClock()
        let types: [any PersistentModel.Type] = [SyncPerson.self, SyncPassport.self, SyncTray.self, SyncCard.self]
        let replicas = try (0..<3).map { _ in
            try Replica(types, server: server.server, account: account, clock: clock)
        }
        var serial = 0
        for _ in 0..<250 {
            let replica = replicas[Int.random(in: 0..<replicas.count, using: &random)]
            let context = replica.context()
            let people = try context.fetch(FetchDescriptor<SyncPerson>(sortBy: [SortDescriptor(\.uid)]))
            let passports = try context.fetch(FetchDescriptor<SyncPassport>(sortBy: [SortDescriptor(\.uid)]))
            let trays = try context.fetch(FetchDescriptor<SyncTray>(sortBy: [SortDescriptor(\.uid)]))
            let cards = try context.fetch(FetchDescriptor<SyncCard>(sortBy: [SortDescriptor(\.uid)]))
            serial += 1
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<10: context.insert(SyncPerson(uid: "person-\(serial)"))
            case 10..<20: context.insert(SyncPassport(uid: "passport-\(serial)"))
            case 20..<26: context.insert(SyncTray(uid: "tray-\(serial)"))
            case 26..<36:
                context.insert(SyncCard(uid: "card-\(serial)", tray: trays.randomElement(using: &random)))
            case 36..<52:
                guard let passport = passports.randomElement(using: &random) else { continue }
                passport.owner = Bool.random(using: &random) ? nil : people.randomElement(using: &random)
            case 52..<58:
                guard let person = people.randomElement(using: &random) else { continue }
                person.passport = passports.randomElement(using: &random)
            case 58..<70:
                guard let card = cards.randomElement(using: &random) else { continue }
                card.tray = Bool.random(using: &random) ? nil : trays.randomElement(using: &random)
            case 70..<74:
                guard let model = passports.randomElement(using: &random) else { continue }
                context.delete(model)
            case 74..<78:
                guard let model = trays.randomElement(using: &random) else { continue }
                context.delete(model)
            case 78..<80:
                guard let model = people.randomElement(using: &random) else { continue }
                context.delete(model)
            case 80..<88:
                replica.network.isUp.toggle()
                continue
            default:
                try? await replica.sync()
                continue
            }
            try context.save()
        }
        for replica in replicas { replica.network.isUp = true }
        for _ in 0..<3 {
            for replica in replicas { try await replica.sync() }
        }
        let dumps = try replicas.map { try dumpLinks($0.container) }
        #expect(dumps[1] == dumps[0], "seed \(seed)")
        #expect(dumps[2] == dumps[0], "seed \(seed)")
        #expect(!dumps[0].isEmpty)
    }
}
