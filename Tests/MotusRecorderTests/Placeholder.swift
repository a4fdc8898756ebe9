// Recorder tests arrive with the recorder.
