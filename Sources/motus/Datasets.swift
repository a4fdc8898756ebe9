import Motus

/// Opening the paths an `evaluate*` command is given, as datasets with their ground truth.
enum Datasets {
    /// Each path as a dataset: a dataset folder Motus knows, or a recording or a folder of
    /// recordings (read with `options` when given); with `recordings` (`--recording`), only the
    /// entries with those ids.
    static func open(_ paths: [String], options: DelimitedOptions = .init(), recordings: [String]? = nil) throws -> [EvaluationDataset] {
        try paths.map { try EvaluationDataset.open($0, options: options, recordings: recordings) }
    }

    /// `--list-recordings`: one JSON object per line and entry of every path, `{"path": the
    /// path as given, "dataset": its name, "recording": the entry's id, "set_aside": the reason
    /// or null}`, the pairs `--recording` takes (a task per line spreads a run over machines).
    static func listing(_ paths: [String], options: DelimitedOptions) throws -> String {
        var out = ""
        for p in paths {
            let ds = try EvaluationDataset.open(p, options: options)
            for e in ds.entries {
                out += "{\"path\":\(RecordingJSONLinesWriter.string(p)),\"dataset\":\(RecordingJSONLinesWriter.string(ds.name)),\"recording\":\(RecordingJSONLinesWriter.string(e.id)),"
                    + "\"set_aside\":\(e.setAside.map(RecordingJSONLinesWriter.string) ?? "null")}\n"
            }
        }
        return out
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

    /// " (skipped: id: reason, …)" for an error that no recording could be scored; "" when
    /// none was skipped.
    static func skippedSuffix(_ skipped: [Evaluation.Skipped]) -> String {
        skipped.isEmpty ? "" : " (skipped: \(skipped.map(\.description).joined(separator: ", ")))"
    }

    /// The bar failure for skipped recordings (without `--allow-skipped`).
    static func skippedFailure(_ skipped: [Evaluation.Skipped]) -> String {
        "\(skipped.count) recording\(skipped.count == 1 ? "" : "s") not scored (\(skipped.prefix(3).map(\.description).joined(separator: ", "))\(skipped.count > 3 ? ", …" : "")); --allow-skipped accepts them"
    }
}
