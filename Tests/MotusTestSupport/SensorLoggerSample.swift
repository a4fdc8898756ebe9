/// One Sensor Logger HTTP push message as FORMATS.md §B.3 documents it (seven readings, one of
/// them a battery reading Motus ignores), shared by the parser tests (MotusIOTests) and the
/// HTTP receiver tests (MotusRecorderTests).
public enum SensorLoggerSample {
    public static let message = #"""
    {"messageId":12,"sessionId":"c5241337-a594-480d-b2f8-4aa2fd8b6c53","deviceId":"7d1c0bff-f830-4dc9-a431-26873453ebb1","payload":[
     {"name":"gyroscope","time":1700000000125456640,"values":{"x":-0.0511,"y":-0.0319,"z":0.0169}},
     {"name":"accelerometer","time":1700000000123456768,"values":{"x":0.0611,"y":-0.0009,"z":-0.1038}},
     {"name":"orientation","time":1700000000126000128,"values":{"qx":0.2137,"qy":-0.1082,"qz":-0.4932,"qw":0.8363,"roll":0.0336,"pitch":-0.4828,"yaw":1.0739}},
     {"name":"location","time":1700000001514000128,"values":{"latitude":52.520008,"longitude":13.404954,"altitude":81.2,"altitudeAboveMeanSeaLevel":34.0,"speed":-1,"speedAccuracy":0.4,"bearing":87.5,"bearingAccuracy":12.0,"horizontalAccuracy":4.7,"verticalAccuracy":3.1}},
     {"name":"pedometer","time":1700000002000000000,"values":{"steps":42}},
     {"name":"barometer","values":{"relativeAltitude":0,"pressure":994.28662109375},"accuracy":3,"time":1658038822740147200},
     {"name":"battery","time":1700000002000000000,"values":{"batteryLevel":0.5,"batteryState":"charging","lowPowerMode":false}}
    ]}
    """#
}
