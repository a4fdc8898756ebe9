/// A length on the picture in SVG user units, which Motus draws as CSS pixels (px). Like the
/// unit types of MotusCore (`Seconds`, `Meters`, …) an alias of `Double`: it names the unit in
/// the signature and converts nothing.
public typealias Pixels = Double
