/// Colours that stay distinct for the common kinds of colour blindness: the palette of Okabe
/// and Ito (2008). Series take blue and vermillion first; black is kept for references (true
/// steps, true counts) and yellow, faint on white, for shaded bands.
public enum Palette {
    /// The eight colours by Okabe and Ito's names, as SVG colours.
    public static let orange = "#E69F00"
    public static let skyBlue = "#56B4E9"
    public static let bluishGreen = "#009E73"
    public static let yellow = "#F0E442"
    public static let blue = "#0072B2"
    public static let vermillion = "#D55E00"
    public static let reddishPurple = "#CC79A7"
    public static let black = "#000000"
    /// For gaps and other things that are not data.
    public static let grey = "#999999"
    /// The series colours in the order plots hand them out.
    public static let series = [blue, vermillion, bluishGreen, orange, reddishPurple, skyBlue, yellow, black]
    /// The `i`-th series colour (wrapping around).
    public static func color(_ i: Int) -> String { series[((i % series.count) + series.count) % series.count] }
}
