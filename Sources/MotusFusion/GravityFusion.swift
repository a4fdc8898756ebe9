import MotusCore

/// Which causal filter estimates gravity from an accelerometer and a gyroscope where the
/// device gives none (what `FrameBuilder`, and so the live session, training and evaluation,
/// fuse with), and its settings.
public enum GravityFusion: Sendable, Hashable {
    /// `OrientationFilter`, the filter that is right against optical motion capture (BROAD);
    /// the default.
    case orientation(OrientationFilter.Settings)
    /// `AttitudeFilter`, the filter of the models trained before it (model files of version
    /// 1 name no filter and mean this one): such a model keeps the frames it was trained on.
    case attitude(AttitudeFilter.Settings)

    /// `OrientationFilter` with its default settings.
    public static let `default` = GravityFusion.orientation(.default)
}

extension GravityFusion: Codable {
    // `{"filter": "orientation", "settings": {…}}` or `{"filter": "attitude", "settings": {…}}`.
    // A bare `AttitudeFilter.Settings` object, as model files of version 1 hold it, reads as
    // `.attitude`.
    enum CodingKeys: String, CodingKey { case filter, settings }

    /// Reads either form (see the type's coding keys).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.contains(.filter) else {
            self = .attitude(try AttitudeFilter.Settings(from: decoder))
            return
        }
        let name = try c.decode(String.self, forKey: .filter)
        switch name {
        case "orientation": self = .orientation(try c.decode(OrientationFilter.Settings.self, forKey: .settings))
        case "attitude": self = .attitude(try c.decode(AttitudeFilter.Settings.self, forKey: .settings))
        default:
            throw DecodingError.dataCorruptedError(forKey: .filter, in: c,
                                                   debugDescription: "unknown filter \"\(name)\": expected orientation or attitude")
        }
    }

    /// Writes `{"filter": …, "settings": …}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .orientation(let s): try c.encode("orientation", forKey: .filter); try c.encode(s, forKey: .settings)
        case .attitude(let s): try c.encode("attitude", forKey: .filter); try c.encode(s, forKey: .settings)
        }
    }
}
