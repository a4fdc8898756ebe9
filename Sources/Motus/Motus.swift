// The umbrella product: `import Motus` gives an app every library layer.
@_exported import MotusCore
@_exported import MotusIO
@_exported import MotusSignal
@_exported import MotusFusion
@_exported import MotusFeatures
@_exported import MotusLearn
@_exported import MotusClassifier
@_exported import MotusGeo
@_exported import MotusTracking
@_exported import MotusEvaluation
