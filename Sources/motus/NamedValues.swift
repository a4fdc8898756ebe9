/// Bars named per class or group, `NAME=X` (`evaluate --min-recall moving=0.995`,
/// `evaluate-steps --max-group-mape long-cane=2.5`): each argument split at its first `=`, the
/// name not empty and X a number the bar accepts.
enum NamedValues {
    /// The (name, X) of each of `arguments`, in the order given; `malformed(argument)` is thrown
    /// for the first one that is not `NAME=X` with X a number `accept` takes.
    static func parse(_ arguments: [String], accept: (Double) -> Bool,
                      malformed: (String) -> Error) throws -> [(name: String, value: Double)] {
        try arguments.map { a in
            guard let eq = a.firstIndex(of: "="), eq != a.startIndex, let x = Double(a[a.index(after: eq)...]), accept(x) else {
                throw malformed(a)
            }
            return (String(a[..<eq]), x)
        }
    }
}
