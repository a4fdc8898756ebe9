// Unit types: every public value of Motus that carries a physical quantity names its unit,
// either in its name (`distanceMeters`) or in its type (`duration: Seconds`). The types below
// are aliases of `Double`, so they cost nothing, convert nothing and keep every caller that
// passes a `Double` compiling; they put the unit where the signature (and DocC) shows it.
//
// What stays a plain `Double` or `Int`: dimensionless values — ratios, fractions, gains,
// probabilities, scores, correlations, counts (steps are a count) — and values whose unit is
// the caller's (a filter's input sample has the unit of the stream it filters). `Vector3`
// values keep their type; their documentation says the unit (m/s², rad/s, µT, m).

/// Time in seconds (s).
///
/// A time stamp is a `Seconds` value counted from the recording's clock origin: the first
/// sample of a file that starts at zero, the phone's boot for CoreMotion and Android
/// timestamps, or the Unix epoch for GPS tracks. Which origin a recording uses is the
/// reader's to say; within one recording every stream shares it. Durations, periods, time
/// constants and offsets are `Seconds` too.
public typealias Seconds = Double

/// Frequency or sample rate in hertz (Hz, 1/s).
public typealias Hertz = Double

/// Length, distance, height or altitude in metres (m).
public typealias Meters = Double

/// Speed in metres per second (m/s).
public typealias MetersPerSecond = Double

/// Acceleration in metres per second squared (m/s²), the unit of every acceleration inside
/// Motus (readers convert g once, at the edge).
public typealias MetersPerSecondSquared = Double

/// Angular rate in radians per second (rad/s).
public typealias RadiansPerSecond = Double

/// Angle in radians (rad).
public typealias Radians = Double

/// Angle in degrees (°): latitudes, longitudes, courses, headings and tilts where a person
/// reads them.
public typealias Degrees = Double

/// Pressure in pascals (Pa).
public typealias Pascals = Double

/// Magnetic flux density in microteslas (µT).
public typealias Microteslas = Double

/// Mass in kilograms (kg).
public typealias Kilograms = Double

/// Power in watts (W).
public typealias Watts = Double

/// Energy in kilocalories (kcal, 4184 J), the unit sports apps and watches report.
public typealias Kilocalories = Double

/// A share in percent (0 to 100).
public typealias Percent = Double

/// Pace in seconds per kilometre (s/km).
public typealias SecondsPerKilometer = Double

/// Step cadence in steps per minute.
public typealias StepsPerMinute = Double

/// Heart rate in beats per minute.
public typealias BeatsPerMinute = Double

/// A person's age in years.
public typealias Years = Double

/// A cadence in cycles per minute: pedal revolutions on a bike (rpm), strides of one foot
/// when running (the value FIT and TCX files hold).
public typealias CyclesPerMinute = Double

/// Energy or work in joules (J).
public typealias Joules = Double

/// Spectral density of a white acceleration (m²/s³): the process noise of a constant-velocity
/// Kalman filter.
public typealias MetersSquaredPerSecondCubed = Double

/// Area in square metres (m²).
public typealias SquareMeters = Double
