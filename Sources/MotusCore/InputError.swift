/// Where in an input something was found: file, 1-based line and column (column counts
/// bytes from the start of the line; 0 when the problem is with the whole line or file).
/// Binary files have no lines: there `line` is 0 and `column` is the byte offset from the
/// start of the file (printed as `file at byte N`; offset 0 prints as the file alone).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given, or a name for a non-file input (`-`, a network source).
    public var file: String
    /// 1-based line; 0 for the whole file or a binary file.
    public var line: Int
    /// 1-based byte column in the line; 0 for the whole line; the byte offset in a binary file.
    public var column: Int
    /// A location; line and column 0 mean the whole file (or line).
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
    /// What kind of problem, for code that reacts to some of them (the text says the rest).
    public enum Reason: String, Sendable, Hashable {
        /// Text that should be a number and is not.
        case badNumber
        /// A number that is NaN or infinite where a finite one is needed.
        case nonFinite
        /// A line with fewer fields than the header (or the format) needs.
        case missingColumn
        /// A file (or a stream) with nothing to read.
        case emptyFile
        /// A timestamp earlier than the one before it in the same stream.
        case timeBackwards
        /// A header line that is not one the reader knows.
        case badHeader
        /// A value of the right type that is out of range or not allowed.
        case badValue
        /// A file that cannot be opened or read.
        case unreadable
        /// A file that ends in the middle of a record.
        case truncated
    }
    /// Where the problem is.
    public var location: SourceLocation
    /// What kind of problem.
    public var reason: Reason
    /// The text found (shortened to 40 characters), empty when nothing was there.
    public var found: String
    /// What should have been there.
    public var expected: String

    /// An error; `found` is shortened to 40 characters.
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
