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

    /// The report's lines for recordings that were not scored, one per recording with its reason.
    static func skippedLines(_ skipped: [Evaluation.Skipped]) -> String {
        guard !skipped.isEmpty else { return "" }
        return "skipped \(skipped.count) recording\(skipped.count == 1 ? "" : "s"):\n" + skipped.map { "  \($0.id): \($0.reason)\n" }.joined()
    }

    /// The bar failure for skipped recordings (without `--allow-skipped`).
    static func skippedFailure(_ skipped: [Evaluation.Skipped]) -> String {
        "\(skipped.count) recording\(skipped.count == 1 ? "" : "s") not scored (\(skipped.prefix(3).map(\.description).joined(separator: ", "))\(skipped.count > 3 ? ", …" : "")); --allow-skipped accepts them"
    }
}
