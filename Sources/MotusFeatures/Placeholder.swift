// MotusFeatures: windowed features (see the features helper's branch)
