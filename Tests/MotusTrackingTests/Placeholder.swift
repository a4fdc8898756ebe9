// Tracking tests
