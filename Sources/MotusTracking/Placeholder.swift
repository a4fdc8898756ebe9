// MotusTracking: see its issue
