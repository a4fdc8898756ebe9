// MotusRecorder: live recording from phone apps (see the recorder issue)
