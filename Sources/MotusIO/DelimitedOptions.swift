import MotusCore

/// A column of a delimited file, by header name or 0-based index.
public enum ColumnRef: Hashable, Sendable, CustomStringConvertible {
    case index(Int)
    case name(String)

    /// Parses command-line text: a whole number is an index, anything else a header name.
    public init(parsing text: String) {
        if let i = Int(text), i >= 0 { self = .index(i) } else { self = .name(text) }
    }

    public var description: String {
        switch self { case .index(let i): "\(i)"; case .name(let n): n }
    }
}

/// How to read a delimited text file (CSV, TSV, space-separated) as a recording. These are
/// the flags every `motus` command that reads a recording takes. Unset fields are found from
/// the header when it uses names Motus knows (CoreMotion, MotionSense, common `acc_x`-style).
public struct DelimitedOptions: Sendable, Equatable {
    /// Column holding the sample time; nil: use `rateHz`, or a known header name.
    public var timeColumn: ColumnRef?
    public var timeUnit: TimeUnit?
    /// Rows are equally spaced at this rate when there is no time column: row i is at i / rate s.
    public var rateHz: Double?
    public var accelColumns: [ColumnRef]?
    public var accelUnit: AccelerationUnit?
    public var gyroColumns: [ColumnRef]?
    public var gyroUnit: RotationUnit?
    public var gravityColumns: [ColumnRef]?
    public var userAccelColumns: [ColumnRef]?
    /// Magnetic-field columns, in µT.
    public var magColumns: [ColumnRef]?
    /// Ground truth in columns (`GroundTruthInput`): labels, events, step events.
    public var labelColumn: ColumnRef?
    public var eventColumn: ColumnRef?
    public var stepColumn: ColumnRef?
    /// A sidecar file of label segments or events for the recording (`GroundTruthInput`);
    /// nil: `REC.truth.csv` beside the recording when there is one.
    public var groundTruthFile: String?
    /// The file has no header line (columns then must be given as indexes).
    public var noHeader: Bool = false
    /// Field delimiter; nil: detected from the first line (comma, tab, semicolon, else space).
    public var delimiter: UInt8?
    /// Acceleration, gravity and user acceleration are in CoreMotion's sign convention
    /// (face up reads −1 g on z) and are negated into Motus's (Android's) convention. Set
    /// automatically for CoreMotion header names.
    public var coreMotionSign: Bool?
    /// How far back (s) a timestamp may step before reading stops with an error. Smaller
    /// steps back are kept and re-sorted by the resampler.
    public var backwardsTolerance: Double = 1.0
    /// What to do with a last line without a newline that looks cut (`LastLineRule`): an error
    /// (the default), or leave it out and say so. Applies to every format `RecordingLoader`
    /// reads, not only delimited text.
    public var incompleteLastLine: IncompleteLinePolicy = .error
    /// The layout file these options were filled from (`DelimitedLayout`), named in the
    /// recording's metadata as `x.layout`; nil when none applied.
    public var layoutFile: String?
    /// What to do when the values look read in the wrong unit or the timestamps disagree with
    /// `rateHz` (`PlausibilityCheck`): warn (the default), stop with an error, or nothing.
    /// Applies to every file `RecordingLoader` and `SampleReader` read.
    public var plausibility: PlausibilityPolicy = .warn

    public init() {}

    /// True when no column flag was given, so the header alone must say what the columns are
    /// (the incomplete-line and plausibility policies, the layout file's name and the ground
    /// truth's columns and sidecar do not count).
    public var isEmpty: Bool {
        var o = self
        o.incompleteLastLine = .error
        o.layoutFile = nil
        o.plausibility = .warn
        o.labelColumn = nil; o.eventColumn = nil; o.stepColumn = nil; o.groundTruthFile = nil
        return o == DelimitedOptions()
    }

    /// The metadata a delimited file read with these options carries: the declared rate, the
    /// file, and the layout file the options came from.
    public func metadata(source: String) -> RecordingMetadata {
        var m = RecordingMetadata(nominalRateHz: rateHz, source: InputSpool.displayName(source))
        if let l = layoutFile { m.extra["layout"] = l }
        return m
    }
}
