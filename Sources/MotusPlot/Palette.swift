/// Colours that stay distinct for the common kinds of colour blindness: the palette of Okabe
/// and Ito (2008). Series take blue and vermillion first; black is kept for references (true
/// steps, true counts) and yellow, faint on white, for shaded bands.
public enum Palette {
    /// Orange, `#E69F00`. This and the seven below are Okabe and Ito's colours by their names,
    /// as SVG colours.
    public static let orange = "#E69F00"
    /// Sky blue, `#56B4E9`.
    public static let skyBlue = "#56B4E9"
    /// Bluish green, `#009E73`.
    public static let bluishGreen = "#009E73"
    /// Yellow, `#F0E442`: faint on white, so kept for shaded bands.
    public static let yellow = "#F0E442"
    /// Blue, `#0072B2`: the first series colour.
    public static let blue = "#0072B2"
    /// Vermillion, `#D55E00`: the second series colour.
    public static let vermillion = "#D55E00"
    /// Reddish purple, `#CC79A7`.
    public static let reddishPurple = "#CC79A7"
    /// Black, `#000000`: kept for references (true steps, true counts).
    public static let black = "#000000"
    /// For gaps and other things that are not data.
    public static let grey = "#999999"
    /// The series colours in the order plots hand them out.
    public static let series = [blue, vermillion, bluishGreen, orange, reddishPurple, skyBlue, yellow, black]
    /// The `i`-th series colour (wrapping around).
    public static func color(_ i: Int) -> String { series[((i % series.count) + series.count) % series.count] }
}
