/// Where in an input something was found: file, 1-based line and column (column counts
/// bytes from the start of the line; 0 when the problem is with the whole line or file).
/// Binary files have no lines: there `line` is 0 and `column` is the byte offset from the
/// start of the file (printed as `file at byte N`; offset 0 prints as the file alone).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public init(file: String, line: Int = 0, column: Int = 0) { self.file = file; self.line = line; self.column = column }
    /// A byte offset in a binary file.
    public static func byteOffset(_ offset: Int, in file: String) -> SourceLocation { SourceLocation(file: file, line: 0, column: offset) }
    public var description: String {
        if line == 0 { return column == 0 ? file : "\(file) at byte \(column)" }
        return column == 0 ? "\(file):\(line)" : "\(file):\(line):\(column)"
    }
}

/// An input that Motus cannot take as it is: what was found where, and what was expected.
/// Its description is one line: `file:line:column: found '…', expected …`, with any control
/// character from the input written as a visible escape (`escapingControlCharacters`).
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable {
        case badNumber, nonFinite, missingColumn, emptyFile, timeBackwards, badHeader, badValue, unreadable, truncated
    }
    public var location: SourceLocation
    public var reason: Reason
    /// The text found (shortened to 40 characters), empty when nothing was there.
    public var found: String
    /// What should have been there.
    public var expected: String

    public init(_ reason: Reason, at location: SourceLocation, found: String, expected: String) {
        self.reason = reason; self.location = location
        self.found = found.count > 40 ? String(found.prefix(37)) + "..." : found
        self.expected = expected
    }

    public var description: String {
        let f = found.isEmpty ? "nothing" : "'\(found)'"
        return "\(location): found \(f), expected \(expected)".escapingControlCharacters
    }
}
