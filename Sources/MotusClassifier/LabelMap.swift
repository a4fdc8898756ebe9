/// Maps a recording's labels (e.g. MotionSense's `wlk`, `sit`) to a model's classes (e.g.
/// `moving`, `still`). Labels not in the map are left out of training and evaluation.
public struct LabelMap: Codable, Equatable, Sendable {
    /// Class names in model order.
    public var classes: [String]
    /// Recording label → class index.
    public var classOfLabel: [String: Int]

    /// A map from labels to indices into `classes`.
    public init(classes: [String], classOfLabel: [String: Int]) {
        self.classes = classes; self.classOfLabel = classOfLabel
    }

    /// Parses `class=label,label` entries, as `--map moving=wlk,jog --map still=sit,std` give them.
    /// A map for training needs two classes; one for scoring a model on data of one class only
    /// (WeAllWalk's walks: `--map moving=walk`) may name fewer (`minimumClasses` 1).
    public init(parsing entries: [String], minimumClasses: Int = 2) throws(ClassifierError) {
        var classes: [String] = [], map: [String: Int] = [:]
        for e in entries {
            guard let eq = e.firstIndex(of: "="), eq != e.startIndex else {
                throw .badArgument("--map takes class=label,label…, not '\(e)'")
            }
            let cls = String(e[..<eq])
            let labels = e[e.index(after: eq)...].split(separator: ",").map { String($0).trimmed }
            guard !labels.isEmpty, labels.allSatisfy({ !$0.isEmpty }) else { throw .badArgument("--map \(cls)= lists no labels") }
            let index = classes.firstIndex(of: cls) ?? { classes.append(cls); return classes.count - 1 }()
            for l in labels {
                if let other = map[l], other != index { throw .badArgument("label '\(l)' is mapped to both \(classes[other]) and \(cls)") }
                map[l] = index
            }
        }
        guard classes.count >= minimumClasses else {
            throw .badArgument(minimumClasses == 1 ? "--map names no class" : "a model needs at least two classes; give --map at least twice")
        }
        self.init(classes: classes, classOfLabel: map)
    }

    /// Every label is its own class (sorted), for training on the labels as they are.
    public static func identity(_ labels: [String]) -> LabelMap {
        let sorted = Array(Set(labels)).sorted()
        return LabelMap(classes: sorted, classOfLabel: Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) }))
    }

    /// The class of a recording label, nil when the label is left out.
    public func classIndex(of label: String) -> Int? { classOfLabel[label] }

    /// `moving=dws,jog,… still=sit,std` for model cards and logs.
    public var description: String {
        classes.enumerated().map { i, c in
            "\(c)=" + classOfLabel.filter { $0.value == i }.keys.sorted().joined(separator: ",")
        }.joined(separator: " ")
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
