import MotusCore

/// A column of a delimited file, by header name or 0-based index.
public enum ColumnRef: Hashable, Sendable, CustomStringConvertible {
    /// The column at this 0-based index, counted from the first field of a line.
    case index(Int)
    /// The column whose header cell is this name.
    case name(String)

    /// Parses command-line text: a whole number is an index, anything else a header name.
    public init(parsing text: String) {
        if let i = Int(text), i >= 0 { self = .index(i) } else { self = .name(text) }
    }

    /// The column as typed on the command line: the index, or the header name.
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
    /// The unit of the time column's values; nil: from a `_s`/`_ms`/`_us`/`_ns` suffix or a
    /// `(unit)` in the column's name, else what an app's lines before the header say (HyperIMU's
    /// `timestamp` in ms), else seconds.
    public var timeUnit: TimeUnit?
    /// Rows are equally spaced at this rate when there is no time column: row i is at i / rate s.
    public var rateHz: Hertz?
    /// The three columns (x, y, z) of acceleration including gravity; nil: found from the header.
    public var accelColumns: [ColumnRef]?
    /// The unit of the acceleration, gravity and user-acceleration columns; nil: the header cell's
    /// `(unit)`, else g for CoreMotion headers and m/s² otherwise. Giving it for a file with none of
    /// those streams is an error.
    public var accelUnit: AccelerationUnit?
    /// The three columns (x, y, z) of rotation rate; nil: found from the header.
    public var gyroColumns: [ColumnRef]?
    /// The unit of the rotation-rate columns; nil: the header cell's `(unit)`, else rad/s. Giving it
    /// for a file without rotation rate is an error.
    public var gyroUnit: RotationUnit?
    /// The three columns (x, y, z) of gravity in the device frame, read in `accelUnit`; nil: found
    /// from the header.
    public var gravityColumns: [ColumnRef]?
    /// The three columns (x, y, z) of user acceleration (gravity removed), read in `accelUnit`;
    /// nil: found from the header.
    public var userAccelColumns: [ColumnRef]?
    /// Magnetic-field columns, in µT.
    public var magColumns: [ColumnRef]?
    /// A column of label text (`GroundTruthInput`): each run of rows with the same non-empty
    /// text is a label segment, from its first row to the next run's first row.
    public var labelColumn: ColumnRef?
    /// A column whose non-empty, non-zero cells are reference events at their rows (kind: the
    /// cell's text, or the column's name when the cell is a number).
    public var eventColumn: ColumnRef?
    /// A column whose non-empty, non-zero cells are `step` events at their rows (text such as
    /// `left` is kept as the event's detail).
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
    public var backwardsTolerance: Seconds = 1.0
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

    /// No flags: everything comes from the header (and a layout file, when the loader finds one).
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
