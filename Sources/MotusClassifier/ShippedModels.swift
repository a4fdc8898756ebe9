import Foundation

extension MotionModel {
    /// The shipped moving-vs-still model (`models/moving-still.json`; its card is
    /// `models/README.md`), embedded in the library so every app and command has it.
    public static let shipped: MotionModel = embedded(shippedMovingStillJSON, name: "models/moving-still.json")

    /// The shipped six-activity model (`models/activities.json`: downstairs, upstairs, walking,
    /// jogging, sitting, standing), embedded like `shipped`.
    public static let shippedActivities: MotionModel = embedded(shippedActivitiesJSON, name: "models/activities.json")

    /// Decodes an embedded model. Its text is written by `models/embed.sh` from a file the
    /// tests decode and check, so a failure here is a defect of the build, not bad input.
    private static func embedded(_ json: String, name: String) -> MotionModel {
        do { return try decode(Data(json.utf8), source: "the shipped model (\(name))") } catch {
            preconditionFailure("\(error)")
        }
    }
}
