import MotusCore

/// A dataset's listing and the fingerprint of every file its entries read (`Dataset.files(of:)`),
/// taken at one moment (when a run starts). Compared with the same dataset listed again when the
/// run ends, it tells whether the data changed under the run: a recording that appeared or went
/// away (a walk folder being replaced when it was listed), a file rewritten after it was listed.
public struct DatasetSnapshot: Sendable, Hashable {
    /// The dataset's folder (`Dataset.root`), named in the error when the listing changed.
    public let root: String
    /// Entry ids and set-aside reasons, in order.
    public let listing: [String]
    /// The fingerprint of every file the entries read, absent optional files included.
    public let files: FileSnapshot

    /// Lists `dataset` and fingerprints every file of every entry, now.
    public init(_ dataset: any Dataset) {
        root = dataset.root
        listing = DatasetSnapshot.listing(dataset)
        files = FileSnapshot(dataset.entries.flatMap { dataset.files(of: $0) })
    }

    static func listing(_ d: any Dataset) -> [String] {
        d.entries.map { e in e.setAside.map { "\(e.id) (\($0))" } ?? e.id }
    }

    /// Throws `.unreadable` when `now` lists other recordings (or sets others aside), naming the
    /// first difference, or when a file changed since the snapshot, naming the file.
    public func verifyUnchanged(_ now: any Dataset) throws(InputError) {
        let later = DatasetSnapshot.listing(now)
        if later != listing {
            let before = Set(listing), after = Set(later)
            let gone = listing.filter { !after.contains($0) }, new = later.filter { !before.contains($0) }
            var parts: [String] = []
            if !gone.isEmpty { parts.append("no longer listed: \(gone.prefix(3).joined(separator: ", "))") }
            if !new.isEmpty { parts.append("newly listed: \(new.prefix(3).joined(separator: ", "))") }
            throw InputError(.unreadable, at: SourceLocation(file: root), found: "changed while the dataset was read",
                             expected: "the recordings listed when it was opened (\(parts.joined(separator: "; ")); run again once the files are written)")
        }
        let current = FileSnapshot(now.entries.flatMap { now.files(of: $0) })
        if let (p, change) = files.firstChange(in: current) {
            throw StableRead.changed(p, change, while: "while the dataset was read")
        }
    }
}
