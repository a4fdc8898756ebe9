// UCI HAR: a train split folder read as the dataset reads it (the split's files once, each
// subject cut from them). Parts: subject_train.txt, y_train.txt, activity_labels.txt, then the
// signal files total_acc x y z, body_acc x y z, body_gyro x y z (a missing part: no such file).
import FuzzSupport
import MotusCore
import MotusIO

let signalFiles = ["total_acc", "body_acc", "body_gyro"].flatMap { s in ["x", "y", "z"].map { "\(s)_\($0)_train.txt" } }

Fuzz.main { data in
    let p = Fuzz.parts(data, count: 12)
    Fuzz.write(p[0], to: "UCI/train/subject_train.txt")
    if p.count > 1 { Fuzz.write(p[1], to: "UCI/train/y_train.txt") }
    if p.count > 2 { Fuzz.write(p[2], to: "UCI/activity_labels.txt") }
    // The folder must exist even when no signal file does (the split is found by it).
    Fuzz.write([], to: "UCI/train/Inertial Signals/.keep")
    for (i, name) in signalFiles.enumerated() where p.count > 3 + i { Fuzz.write(p[3 + i], to: "UCI/train/Inertial Signals/" + name) }
    guard let ds = Fuzz.read({ () throws(InputError) in try UCIHARDataset(root: Fuzz.path("UCI")) }) else { return }
    for e in ds.entries.prefix(8) { Fuzz.check(Fuzz.read { () throws(InputError) in try ds.load(e.id) }) }
    // The reader alone, which reads the split for one subject.
    if let first = ds.entries.first {
        Fuzz.check(Fuzz.read { () throws(InputError) in try UCIHARReader.read(folder: first.path, subject: first.subject ?? "") })
    }
}
