import SwiftData

// A runnable tour of the seed article's project-and-task story on a SQLite file:
// create a store, insert projects with tasks, save, reopen the file and read everything back.

let storeURL = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "projects.store")
try? FileManager.default.removeItem(at: storeURL)

do {
    let container = try ModelContainer(for: Projekti.self, configurations: ModelConfiguration(url: storeURL))
    let context = ModelContext(container)

    let verkkosivu = Projekti(nimi: "Verkkosivu", kuvaus: "Uusi kotisivu")
    context.insert(verkkosivu)
    for (otsikko, prioriteetti) in [("Suunnittele", 2), ("Toteuta", 1), ("Julkaise", 0)] {
        let tehtava = Tehtava(otsikko: otsikko, prioriteetti: prioriteetti)
        verkkosivu.tehtavat.append(tehtava)
    }
    let muutto = Projekti(nimi: "Muutto", kuvaus: "Uusi toimisto", onValmis: true)
    context.insert(muutto)
    try context.save()
    print(
        "Saved \(try context.fetchCount(FetchDescriptor<Projekti>())) projects and \(try context.fetchCount(FetchDescriptor<Tehtava>())) tasks to \(storeURL.path)"
    )
}

do {
    let container = try ModelContainer(for: Projekti.self, configurations: ModelConfiguration(url: storeURL))
    let context = ModelContext(container)
    let keskeneraiset = FetchDescriptor(
        predicate: #Predicate<Projekti> { !$0.onValmis },
        sortBy: [SortDescriptor(\Projekti.luontipvm, order: .reverse)]
    )
    for projekti in try context.fetch(keskeneraiset) {
        let tehtavat = projekti.tehtavat.sorted { $0.prioriteetti > $1.prioriteetti }
        print(
            "Reopened: \(projekti.nimi) (\(projekti.kuvaus)) with tasks: \(tehtavat.map(\.otsikko).joined(separator: ", "))"
        )
        tehtavat.first?.onTehty = true
    }
    try context.save()
    let tehdyt = try context.fetchCount(FetchDescriptor<Tehtava>(predicate: #Predicate { $0.onTehty }))
    print("Marked \(tehdyt) task done")

    let muutto = try context.fetch(FetchDescriptor<Projekti>(predicate: #Predicate { $0.onValmis }))
    for projekti in muutto { context.delete(projekti) }
    try context.save()
    print("Deleted finished projects; \(try context.fetchCount(FetchDescriptor<Projekti>())) project remains")
}
