// MotusSignal
