// MotusLearn
