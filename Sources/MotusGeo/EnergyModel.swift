import MotusCore

/// Energy expenditure (kcal) for running and cycling.
///
/// Running (ACSM's metabolic equations, ACSM's Guidelines for Exercise Testing and
/// Prescription): VO₂ = 3.5 + 0.2·v + 0.9·v·G mL/kg/min for running (v in m/min, G the grade
/// as a fraction, negative grades taken as 0 as ACSM does not cover descents), and
/// VO₂ = 3.5 + 0.1·v + 1.8·v·G below 100 m/min (walking). kcal = VO₂ · mass · minutes / 1000 ·
/// 5 kcal per litre of O₂. Known error: the equations are for steady treadmill exercise; their
/// standard error of estimate is about 7–10 % of VO₂, more on trails and for non-average runners.
///
/// Cycling with power: kcal = Σ P·dt / efficiency / 4184 J, with a gross efficiency of 24 %
/// (trained cyclists measure 18–25 %, so ±15 %). Cycling without power: mechanical power from
/// the road-load equation P = v·(m·g·Crr·cos θ + m·g·sin θ + ½·ρ·CdA·v²) / η (η = 0.976
/// drivetrain; m rider + bike; ρ from the ISA at the ride's altitude; no wind), clamped at 0
/// when coasting, then the same efficiency. Known error: ±25 % or worse, since wind, drafting,
/// tyres, position and braking are unknown; power-meter figures are much better.
public struct EnergyModel: Sendable, Equatable, Codable {
    /// The rider's mass (kg).
    public var riderMassKg: Kilograms = 75
    /// The bike's mass (kg).
    public var bikeMassKg: Kilograms = 9
    /// Rolling resistance coefficient (road tyres on asphalt: 0.004–0.006).
    public var rollingResistance: Double = 0.005
    /// Drag area (m²): about 0.32 on the hoods, 0.25 in the drops, 0.4 upright.
    public var dragAreaSquareMeters: SquareMeters = 0.32
    /// Share of the rider's power that reaches the wheel.
    public var drivetrainEfficiency: Double = 0.976
    /// Gross metabolic efficiency of cycling.
    public var grossEfficiency: Double = 0.24

    /// A model for these masses (kg), with the other constants at their defaults.
    public init(riderMassKg: Kilograms = 75, bikeMassKg: Kilograms = 9) { self.riderMassKg = riderMassKg; self.bikeMassKg = bikeMassKg }

    /// Which formula gave an energy figure.
    public enum Method: String, Sendable, Codable {
        /// ACSM's running equation, from speed and grade.
        case acsmRunning = "acsm-running"
        /// Cycling from the power meter's work, at the gross efficiency.
        case cyclingPower = "cycling-power"
        /// Cycling from a road-load model of speed and grade (no power meter).
        case cyclingRoadLoad = "cycling-road-load"
    }

    /// kcal for one running interval of `seconds` at `speed` (m/s) on `gradePercent`.
    public func runningKcal(speed: MetersPerSecond, gradePercent: Percent, seconds: Seconds) -> Kilocalories {
        let v = speed * 60
        let g = max(0, gradePercent / 100)
        let vo2 = v < 100 ? 3.5 + 0.1 * v + 1.8 * v * g : 3.5 + 0.2 * v + 0.9 * v * g
        return vo2 * riderMassKg * (seconds / 60) / 1000 * 5
    }

    /// Mechanical power (W) on a bike at `speed` (m/s), `gradePercent`, `elevationMeters`.
    public func cyclingPower(speed: MetersPerSecond, gradePercent: Percent, elevationMeters: Meters = 0) -> Watts {
        let m = riderMassKg + bikeMassKg
        let theta = Math.atan2(gradePercent, 100)
        let rho = 1.225 * Math.pow(1 - 2.25577e-5 * max(-500, min(9000, elevationMeters.isNaN ? 0 : elevationMeters)), 4.2559)
        let force = m * Units.standardGravity * (rollingResistance * Math.cos(theta) + Math.sin(theta)) + 0.5 * rho * dragAreaSquareMeters * speed * speed
        return max(0, speed * force / drivetrainEfficiency)
    }

    /// kcal for mechanical work in joules.
    public func cyclingKcal(workJoules: Joules) -> Kilocalories { workJoules / grossEfficiency / 4184 }
}
