import ArgumentParser
import Motus

@main
struct MotusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motus",
        abstract: "Sensor fusion, motion classification and step counting for phones and wearables.",
        discussion: """
        Reads recordings in Motus's native format, the datasets Motus knows (MotionSense, \
        Oxford step counter, IPOL gait, mPower) and any delimited text file described by the \
        input flags (see `motus help inspect`). Units inside are SI: m/s², rad/s, s, m.
        """,
        version: "0.1.0",
        subcommands: [Inspect.self, Convert.self, Fuse.self, TrackCommand.self, Classify.self, Train.self, Evaluate.self, Features.self, EvaluateSteps.self,
                      EvaluateMotion.self, EvaluateFusion.self, Ride.self, Route.self, PlotCommand.self, ReportCommand.self, Compare.self, Rank.self, Record.self, Import.self])
}

/// Errors the CLI prints as one line on stderr before exiting with status 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

extension ParsableCommand {
    /// Runs `body`, turning library errors into a one-line message and exit status 1.
    static func reportingErrors<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as InputError {
            printError("motus: \(e)")
            throw ExitCode(1)
        } catch let e as NativeWriter.WriteError {
            printError("motus: \(e)")
            throw ExitCode(1)
        } catch let e as ClassifierError {
            printError("motus: \(e)")
            throw ExitCode(1)
        } catch let e as CLIError {
            printError("motus: \(e)")
            throw ExitCode(1)
        }
    }
}

/// Writes one message line on stderr. Messages quote input (file names, contents), so control
/// characters are escaped: input cannot split a message or drive the terminal.
func printError(_ s: String) {
    var err = StandardError()
    print(s.escapingControlCharacters, to: &err)
}

struct StandardError: TextOutputStream {
    mutating func write(_ s: String) {
        var s = s
        s.withUTF8 { p in _ = fwriteStderr(p) }
    }
}
