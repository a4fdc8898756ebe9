// MotusFusion
