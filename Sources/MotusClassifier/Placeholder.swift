// MotusClassifier: see its issue
