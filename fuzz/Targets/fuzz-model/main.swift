// A model file (`--model`): JSON decoded and every shape and setting checked.
import Foundation
import FuzzSupport
import MotusClassifier

Fuzz.main { data in
    _ = Fuzz.read { () throws(ClassifierError) in try MotionModel.decode(Data(data), source: "<fuzz>.json") }
}
