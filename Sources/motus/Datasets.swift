import Motus

/// Opening the paths an `evaluate*` command is given, as datasets with their ground truth.
enum Datasets {
    /// Each path as a dataset: a dataset folder Motus knows, or a recording or a folder of
    /// recordings (read with `options` when given).
    static func open(_ paths: [String], options: DelimitedOptions = .init()) throws -> [EvaluationDataset] {
        try paths.map { try EvaluationDataset.open($0, options: options) }
    }

    /// Progress on stderr for runs of more than 20 recordings: a line every tenth.
    static func progress(_ command: String) -> (Int, Int) -> Void {
        { done, total in
            guard total > 20, done % max(1, total / 10) == 0 || done == total else { return }
            printError("\(command): \(done)/\(total) recordings")
        }
    }
}
