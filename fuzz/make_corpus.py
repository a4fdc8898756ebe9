#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into fuzz/corpus/<target>/.

Seeds come from three places:
- the repository's own samples (datasets/*.motus, datasets/mobgap/*.csv, models/*.json): cut
  to a few kilobytes (the first lines, the header lines with a slice from the middle);
- small files written here in each format's documented layout, for formats with no bundled
  sample (the FIT, MAT and zlib seeds are built byte by byte);
- with --shared DIR (../shared/datasets when it exists): the heads of the real dataset files.
  These are named shared-* and kept out of git (their licences are the datasets' own).

Multi-file targets take one input made of several files joined by the line "--8<--" (see
FuzzSupport.Fuzz.parts). Deterministic: the same files give the same seeds.
"""
import argparse
import glob
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEP = b"\n--8<--\n"
MAX_SEED = 12 * 1024


def head_lines(path, n, skip=0):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    return b"\n".join(lines[skip:skip + n]) + b"\n"


def head_bytes(path, n):
    with open(path, "rb") as f:
        return f.read(n)


def mat_uncompressed(m):
    """A little-endian Level-5 MAT-file with its miCOMPRESSED elements stored plainly."""
    out, at = bytearray(m[:128]), 128
    while at + 8 <= len(m):
        typ, size = struct.unpack_from("<II", m, at)
        if typ == 15:
            out += zlib.decompress(m[at + 8:at + 8 + size])
            at += 8 + size
        else:
            n = 8 + (size + 7) // 8 * 8
            out += m[at:at + n]
            at += n
    return bytes(out)


class Corpus:
    def __init__(self, out):
        self.out = out
        self.count = 0

    def add(self, target, name, data, whole=False):
        if len(data) > MAX_SEED and not whole:
            data = data[:MAX_SEED]
        d = os.path.join(self.out, target)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        self.count += 1


# ---------------------------------------------------------------- hand-written seeds

NATIVE = b"""#motus,1
@meta,device,"Pixel 7"
@meta,nominal_rate_hz,100
@stream,acc,acc,t_s,x_mps2,y_mps2,z_mps2
@stream,gyro,gyro,t_s,x_rads,y_rads,z_rads
@stream,steps,steps,t_s,steps,distance_m
@stream,loc,loc,t_s,lat_deg,lon_deg,alt_m,speed_mps,course_deg,hacc_m,vacc_m
@stream,baro,baro,t_s,pressure_pa
acc,0.00,0.12,9.79,0.31
gyro,0.00,0.001,-0.002,0.0005
acc,0.01,0.13,9.81,0.29
gyro,0.01,0.002,-0.001,0.0004
steps,0.5,1,
loc,0.5,59.91,10.75,12.5,1.2,,4.0,
baro,0.5,101325
@label,0.0,0.5,"still"
@event,0.25,"step","left"
# a comment
acc,0.02,0.11,9.80,0.30
"""

DELIMITED = [
    b"time,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z\n0.00,0.1,0.2,9.8,0.01,0.02,0.03\n0.01,0.1,0.2,9.8,0.01,0.02,0.03\n0.02,0.1,0.25,9.7,0.01,0.02,0.03\n",
    b"timestamp_ns\tax\tay\taz\n1000000000\t0.1\t0.2\t9.8\n1010000000\t0.1\t0.2\t9.8\n",
    b"t;accX;accY;accZ\n0,0.1,0.2,9.8\n0.01;0.1;0.2;9.8\n",
    b"time_ms,userAcceleration.x,userAcceleration.y,userAcceleration.z,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,attitude.w,attitude.x,attitude.y,attitude.z\n"
    b"0,0.01,0.02,0.03,0,0,-1,0.1,0.2,0.3,1,0,0,0\n10,0.01,0.02,0.03,0,0,-1,0.1,0.2,0.3,1,0,0,0\n",
    b"\"Time (s)\",\"Acceleration x (m/s^2)\",\"Acceleration y (m/s^2)\",\"Acceleration z (m/s^2)\"\n0.0,0.1,0.2,9.8\n0.01,0.1,0.2,9.8\n",
    b"# comment\n\ntime acc_x acc_y acc_z\n0 0.1 0.2 9.8\n0.01 0.1 0.2 9.8\r\n0.02 0.1 0.2 9.8\r\n",
]

MS_DM = (b",attitude.roll,attitude.pitch,attitude.yaw,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,"
         b"userAcceleration.x,userAcceleration.y,userAcceleration.z\n"
         b"0,1.5,-0.7,0.69,0.74,0.66,-0.03,0.31,0.77,1.08,0.29,-0.18,0.37\n"
         b"1,1.5,-0.71,0.67,0.75,0.65,-0.03,0.84,0.42,0.64,0.21,0.03,0.11\n"
         b"2,1.52,-0.70,0.66,0.76,0.64,-0.03,0.80,0.40,0.60,0.20,0.02,0.10\n")
MS_SUBJECTS = b"code,weight,height,age,gender\n1,102,188,46,1\n3,48,161,28,0\n"
MS_RAW = b",x,y,z\n0,0.01,-0.98,0.12\n1,0.02,-0.97,0.11\n2,0.02,-0.99,0.10\n"

OXFORD_ACC = b"1023253759986359,3,-0.26105714,3.666775,9.041199\n1023253767372855,3,-0.3305127,3.5805542,9.125025\n1023253769835063,3,-0.38080812,3.63564,9.12263\n"
OXFORD_STEPS = b"1023253829361561,0,1\n1023253919983810,0,1\n"

IPOL_LB = (b"Acquisition frequency: 100 Hz\nPacketCounter\tAcc_X\tAcc_Y\tAcc_Z\tGyr_X\tGyr_Y\tGyr_Z\tMag_X\tMag_Y\tMag_Z\n"
           b"0.0\t9.75\t0.90\t2.45\t0.022\t0.014\t-0.0007\t-0.57\t0.07\t-0.63\n"
           b"1.0\t9.73\t0.89\t2.47\t0.020\t0.009\t-0.002\t-0.57\t0.07\t-0.64\n"
           b"2.0\t9.75\t0.90\t2.45\t0.024\t0.009\t-0.0008\t-0.56\t0.08\t-0.64\n")
IPOL_JSON = (b'{"Subject": 2, "Trial": 1, "Filename": "2-1", "Age": 38, "Gender": "M", "Height": 169.0, "Weight": 78.0, '
             b'"TrialBoundaries": [0, 2], "UTurnBoundaries": [1, 2], "LeftFootEvents": [[0, 1]], "RightFootEvents": [[1, 2]]}')
IPOL_LB2 = (b"// Start Time: Unknown\n// Update Rate: 100.0Hz\n// Filter Profile: human (46.1)\n"
            b"PacketCounter\tSampleTimeFine\tAcc_X\tAcc_Y\tAcc_Z\tGyr_X\tGyr_Y\tGyr_Z\tMag_X\tMag_Y\tMag_Z\tRoll\tPitch\tYaw\n"
            b"100\t1\t9.7\t0.9\t2.4\t0.02\t0.01\t0.0\t-0.5\t0.07\t-0.6\t1\t2\t3\n"
            b"101\t2\t9.7\t0.9\t2.4\t0.02\t0.01\t0.0\t-0.5\t0.07\t-0.6\t1\t2\t3\n")
IPOL_GE = b'{"gait start": [100], "gait end": [101], "LeftFootEvents": [[100, 101]], "RightFootEvents": []}'

MPOWER = (b'[{"attitude":{"y":0.35,"w":0.69,"z":-0.003,"x":-0.62},"timestamp":0.0,"rotationRate":{"x":0.33,"y":1.81,"z":-0.13},'
          b'"userAcceleration":{"x":-0.1,"y":-0.2,"z":0.04},"gravity":{"x":0.48,"y":0.87,"z":0.04},"magneticField":{"y":0,"z":0,"x":0,"accuracy":-1}},'
          b'{"attitude":{"y":0.36,"w":0.69,"z":-0.003,"x":-0.62},"timestamp":0.01,"rotationRate":{"x":0.3,"y":1.8,"z":-0.1},'
          b'"userAcceleration":{"x":-0.1,"y":-0.2,"z":0.04},"gravity":{"x":0.48,"y":0.87,"z":0.04},"magneticField":{"y":0,"z":0,"x":0,"accuracy":-1}}]')
MPOWER_RAW = b'[{"timestamp":1.5,"x":0.01,"y":-0.98,"z":0.1},{"timestamp":1.51,"x":0.02,"y":-0.97,"z":0.1}]'


def weallwalk_row(t):
    vals = [t] + [0.1 * (i % 7) for i in range(1, 41)]
    vals[29] = -1
    return (",".join("%.6f" % v if i != 29 else "-1" for i, v in enumerate(vals))).encode() + b"\n"


WEALLWALK_CSV = b"".join(weallwalk_row(0.04 * i) for i in range(4))
WEALLWALK_XML = b"""<?xml version="1.0" encoding="UTF-8"?>
<root>
<PathID>1</PathID>
<SubjectID>4</SubjectID>
<MobilityTool>GD</MobilityTool>
<SubjectAnnotations>fast &amp; steady</SubjectAnnotations>
<Segments>
<PathSegment>
	<PathSegmentID>1</PathSegmentID>
	<StartTime>0.01</StartTime>
	<EndTime>0.10</EndTime>
	<NSteps>2</NSteps>
	<Direction>E</Direction>
	<Steps>
		<Step><WhichFoot>L</WhichFoot><Time>0.02</Time></Step>
		<Step><WhichFoot>R</WhichFoot><Time>0.08</Time></Step>
	</Steps>
</PathSegment>
</Segments>
</root>
"""

SPSWHAR = (b"x_acc,y_acc,z_acc,x_gyro,y_gyro,z_gyro,timestamp,label\n"
           b"-4.16,-1.18,-8.99,0.0028,-0.0138,-0.0321,1657533977813,SEATED\n"
           b"-4.18,-1.19,-9.01,0.0071,-0.0114,-0.0229,1657533977864,SEATED\n"
           b"-4.19,-1.23,-9.05,0.0101,-0.0126,-0.0125,1657533977914,WALKING\n")
SPSWHAR_SUBJECTS = b"subject_id,age,gender,height,weight,dominant_hand,executions\ns02,31,M,171,71,R,9\n"
SPSWHAR_EXEC = b"execution_id,orientation,first_turn,second_turn\ns02_02,back_inv,r,r\n"

MDC = (b",attitude.roll,attitude.pitch,attitude.yaw,gravity.x,gravity.y,gravity.z,rotationRate.x,rotationRate.y,rotationRate.z,"
       b"userAcceleration.x,userAcceleration.y,userAcceleration.z\n"
       b"0,0.1,0.2,0.3,0.0,-1.0,0.0,0.01,0.02,0.03,0.1,0.2,0.3\n1,0.1,0.2,0.3,0.0,-1.0,0.0,0.01,0.02,0.03,0.1,0.2,0.3\n"
       b"2,0.1,0.2,0.3,0.0,-1.0,0.0,0.01,0.02,0.03,0.1,0.2,0.3\n")

SL_PUSH = (b'{"messageId":3,"sessionId":"abc","deviceId":"dev","payload":['
           b'{"name":"accelerometer","time":1698765432000000000,"values":{"x":0.1,"y":0.2,"z":0.3}},'
           b'{"name":"gyroscope","time":1698765432010000000,"values":{"x":0.01,"y":0.02,"z":0.03}},'
           b'{"name":"orientation","time":1698765432010000000,"values":{"qx":0,"qy":0,"qz":0,"qw":1,"roll":0,"pitch":0,"yaw":0}},'
           b'{"name":"location","time":1698765432020000000,"values":{"latitude":59.9,"longitude":10.7,"altitude":12,"speed":-1,"bearing":-1,"horizontalAccuracy":5,"verticalAccuracy":3}},'
           b'{"name":"barometer","time":1698765432030000000,"values":{"pressure":1013.2,"relativeAltitude":0}},'
           b'{"name":"pedometer","time":1698765432040000000,"values":{"steps":4,"distance":2.5}}]}')
SL_EXPORT_JSON = (b'[{"time":"1698765432000000000","seconds_elapsed":"0.01","z":"0.3","y":"0.2","x":"0.1"},'
                  b'{"time":"1698765432010000000","seconds_elapsed":"0.02","z":"0.3","y":"0.2","x":"0.1"}]')
SL_ACC = b"time,seconds_elapsed,z,y,x\n1698765432000000000,-0.01,0.3,0.2,0.1\n1698765432010000000,0.0,0.3,0.2,0.1\n1698765432020000000,0.01,0.3,0.2,0.1\n"
SL_GYRO = b"time,seconds_elapsed,z,y,x\n1698765432000000000,0.0,0.03,0.02,0.01\n1698765432010000000,0.01,0.03,0.02,0.01\n"
SL_META = b"version,device name,recording time,platform,appVersion,device id,sensors,sampleRateMs,standardisation\n3,iPhone,2023-10-31_12-00-00,ios,1.20,abc,Accelerometer|Gyroscope,10,false\n"
SL_ORIENT = b"time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw\n1698765432000000000,0.0,0,0,0,1,0,0,0\n"

JSON = [b'{"a": [1, 2.5e3, -0.0, true, false, null], "b": {"c": "d\\u00e9\\n"}, "e": "nan"}',
        b'[[[[[[[[[[]]]]]]]]]]', b'{"x": 1}{"y": 2}\n{"z": [3]}', b'"\\ud83d\\ude00"', b'1e308']

GPX = b"""<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="motus-fuzz" xmlns="http://www.topografix.com/GPX/1/1">
<metadata><name>walk &amp; run</name></metadata>
<trk><name>t</name><type>running</type><trkseg>
<trkpt lat="59.9100" lon="10.7500"><ele>12.5</ele><time>2023-10-31T12:00:00Z</time></trkpt>
<trkpt lat="59.9101" lon="10.7502"><ele>12.7</ele><time>2023-10-31T12:00:01.500Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
</trkseg><trkseg>
<trkpt lat="59.9103" lon="10.7505"><ele>12.9</ele><time>2023-10-31T12:00:03+01:00</time></trkpt>
</trkseg></trk>
<rte><rtept lat="59.91" lon="10.75"/><rtept lat="59.92" lon="10.76"/></rte>
</gpx>
"""
GPX_TRICKS = b"""<?xml version="1.0"?>
<!-- a leading comment that is long enough to matter for detection by the first bytes of the file ............ -->
<!DOCTYPE gpx [<!ENTITY e SYSTEM "file:///etc/passwd"><!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>
<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><name>&e;&b;</name><![CDATA[x<y]]></trkpt></trkseg></trk></gpx>
"""
TCX = b"""<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
<Activities><Activity Sport="Running"><Id>2023-10-31T12:00:00Z</Id>
<Lap StartTime="2023-10-31T12:00:00Z"><TotalTimeSeconds>2</TotalTimeSeconds><DistanceMeters>5</DistanceMeters>
<Track>
<Trackpoint><Time>2023-10-31T12:00:00Z</Time><Position><LatitudeDegrees>59.91</LatitudeDegrees><LongitudeDegrees>10.75</LongitudeDegrees></Position>
<AltitudeMeters>12.5</AltitudeMeters><DistanceMeters>0</DistanceMeters><HeartRateBpm><Value>120</Value></HeartRateBpm><Cadence>80</Cadence></Trackpoint>
<Trackpoint><Time>2023-10-31T12:00:02Z</Time><Position><LatitudeDegrees>59.9101</LatitudeDegrees><LongitudeDegrees>10.7502</LongitudeDegrees></Position>
<AltitudeMeters>12.7</AltitudeMeters><DistanceMeters>5</DistanceMeters></Trackpoint>
</Track></Lap></Activity></Activities></TrainingCenterDatabase>
"""


def polyline(points, precision=5):
    out = bytearray()
    prev = (0, 0)
    f = 10 ** precision
    for lat, lon in points:
        cur = (round(lat * f), round(lon * f))
        for d in (cur[0] - prev[0], cur[1] - prev[1]):
            v = ~(d << 1) if d < 0 else d << 1
            while v >= 0x20:
                out.append((0x20 | (v & 0x1F)) + 63)
                v >>= 5
            out.append(v + 63)
        prev = cur
    return bytes(out)


def fit_file(records):
    """A FIT activity: file_id, then record messages (timestamp, lat, lon, altitude, heart rate)."""
    body = bytearray()
    # Definition, local 0 = file_id (global 0): type (enum), manufacturer (uint16), product (uint16).
    body += bytes([0x40, 0, 0]) + struct.pack("<H", 0) + bytes([3, 0, 1, 0x00, 1, 2, 0x84, 2, 2, 0x84])
    body += bytes([0x00, 4]) + struct.pack("<HH", 1, 1)
    # Definition, local 1 = record (global 20): timestamp, position_lat, position_long, altitude, heart_rate.
    body += bytes([0x41, 0, 0]) + struct.pack("<H", 20) + bytes([5, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 2, 2, 0x84, 3, 1, 0x02])
    semi = 2 ** 31 / 180
    for t, lat, lon, alt, hr in records:
        body += bytes([0x01]) + struct.pack("<Iiii", t, int(lat * semi), int(lon * semi), 0)[:12]
        body += struct.pack("<H", int((alt + 500) * 5)) + bytes([hr])
    header = bytearray([14, 0x20]) + struct.pack("<H", 2132) + struct.pack("<I", len(body)) + b".FIT"
    header += struct.pack("<H", crc16(header))
    data = bytes(header) + bytes(body)
    return data + struct.pack("<H", crc16(data))


def crc16(data):
    table = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
             0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
    crc = 0
    for b in data:
        for nib in (b & 0xF, b >> 4):
            tmp = table[crc & 0xF]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[nib]
    return crc


def mat_element(dtype, payload, big=False):
    e = ">" if big else "<"
    if len(payload) <= 4 and dtype != 14:
        return struct.pack(e + "HH", dtype, len(payload)) + payload.ljust(4, b"\0") if not big else struct.pack(e + "HH", len(payload), dtype) + payload.ljust(4, b"\0")
    pad = (8 - len(payload) % 8) % 8
    return struct.pack(e + "II", dtype, len(payload)) + payload + b"\0" * pad


def mat_matrix(name, rows, cols, values, big=False, cls=6, logical=False):
    e = ">" if big else "<"
    flags = mat_element(6, struct.pack(e + "II", cls | (0x200 if logical else 0), 0), big)
    dims = mat_element(5, struct.pack(e + "ii", rows, cols), big)
    nm = mat_element(1, name.encode(), big)
    if cls == 6:
        real = mat_element(9, b"".join(struct.pack(e + "d", v) for v in values), big)
    else:
        real = mat_element(2, bytes(int(v) & 0xFF for v in values), big)
    body = flags + dims + nm + real
    return struct.pack(e + "II", 14, len(body)) + body


def mat_file(variables, big=False, compress=False):
    text = b"MATLAB 5.0 MAT-file, Platform: posix, Created by: motus fuzz seeds".ljust(116, b" ")
    header = text + b"\0" * 8 + (struct.pack(">H", 0x0100) + b"MI" if big else struct.pack("<H", 0x0100) + b"IM")
    out = bytearray(header)
    for v in variables:
        if compress:
            z = zlib.compress(v, 6)
            out += struct.pack((">" if big else "<") + "II", 15, len(z)) + z
        else:
            out += v
    return bytes(out)


def broad_mat(n=6, big=False, compress=False):
    def col(k, f):
        return [f(i, c) for c in range(k) for i in range(n)]
    vs = [
        mat_matrix("sampling_rate", 1, 1, [286.0], big),
        mat_matrix("imu_acc", n, 3, col(3, lambda i, c: 9.81 if c == 2 else 0.01 * i), big),
        mat_matrix("imu_gyr", n, 3, col(3, lambda i, c: 0.001 * i), big),
        mat_matrix("imu_mag", n, 3, col(3, lambda i, c: 20.0 + c), big),
        mat_matrix("opt_quat", n, 4, col(4, lambda i, c: 1.0 if c == 0 else 0.0), big),
        mat_matrix("movement", n, 1, [1 if 1 < i < 4 else 0 for i in range(n)], big, cls=9, logical=True),
    ]
    return mat_file(vs, big, compress)


def wisdm_seeds():
    """The hand-written WISDM samples (Tests/HandWritten/wisdm): v1.1 file, 2019 accel and gyro."""
    w = os.path.join(ROOT, "Tests", "HandWritten", "wisdm")
    v1 = head_bytes(os.path.join(w, "WISDM_ar_v1.1_raw.txt"), 4000)
    raw = os.path.join(w, "wisdm-dataset", "raw", "phone")
    acc = head_lines(os.path.join(raw, "accel", "data_1600_accel_phone.txt"), 30)
    gyro = head_lines(os.path.join(raw, "gyro", "data_1600_gyro_phone.txt"), 30)
    return [("both", v1 + SEP + acc + SEP + gyro), ("v1-only", v1), ("accel-only", v1 + SEP + acc)]


def ucihar_seeds():
    """Small UCI HAR train splits in the real layout: subject 1 with two windows that overlap by
    half (one stretch) and subject 2 with one window; every value printed with two decimals,
    as the real files print every value alike. One seed has the nine signal files, one only
    total_acc, one the hand-written sample's first window of each file."""
    def window(start, axis):
        return b" " + b" ".join(b"%.2f" % (0.5 + 0.01 * ((start + i) * (axis + 3) % 97)) for i in range(128)) + b"\n"
    def signal(axis):
        return window(0, axis) + window(64, axis) + window(500, axis)
    head = [b"1\n1\n2\n", b"1\n1\n4\n", b"1 WALKING\n2 WALKING_UPSTAIRS\n3 WALKING_DOWNSTAIRS\n4 SITTING\n5 STANDING\n6 LAYING\n"]
    seeds = [("split", SEP.join(head + [signal(a) for a in range(9)])),
             ("total-only", SEP.join(head + [signal(a) for a in range(3)]))]
    d = os.path.join(ROOT, "Tests", "HandWritten", "uci-har", "UCI HAR Dataset")
    sig = os.path.join(d, "train", "Inertial Signals")
    names = ["%s_%s_train.txt" % (s, a) for s in ("total_acc", "body_acc", "body_gyro") for a in "xyz"]
    if all(os.path.exists(os.path.join(sig, n)) for n in names):
        parts = [b"1\n", b"1\n", head_bytes(os.path.join(d, "activity_labels.txt"), 2000)]
        parts += [head_lines(os.path.join(sig, n), 1) for n in names]
        seeds.append(("sample-first-window", SEP.join(parts)))
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(HERE, "corpus"))
    default_shared = os.path.join(ROOT, "..", "shared", "datasets")
    ap.add_argument("--shared", default=os.environ.get("MOTUS_DATASETS", default_shared),
                    help="real datasets to take heads from (skipped when the folder is absent)")
    a = ap.parse_args()
    c = Corpus(a.out)

    # Native and delimited from the repository's own samples.
    for p in sorted(glob.glob(os.path.join(ROOT, "datasets", "*.motus"))):
        b = os.path.basename(p)[:-6]
        c.add("fuzz-native", b + "-head", head_lines(p, 60))
        with open(p, "rb") as f:
            lines = f.read().split(b"\n")
        meta = [l for l in lines if l.startswith(b"#") or l.startswith(b"@stream") or l.startswith(b"@meta")]
        mid = len(lines) // 2
        c.add("fuzz-native", b + "-middle", b"\n".join(meta + lines[mid:mid + 30]) + b"\n")
        labels = [l for l in lines if l.startswith(b"@label") or l.startswith(b"@event")][:20]
        c.add("fuzz-native", b + "-labels", b"\n".join(meta + lines[len(meta):len(meta) + 10] + labels) + b"\n")
        c.add("fuzz-delimited", b + "-as-csv", b"\0" + head_lines(p, 40))
    c.add("fuzz-native", "all-kinds", NATIVE)
    c.add("fuzz-native", "no-final-newline", NATIVE.rstrip(b"\n"))
    for p in sorted(glob.glob(os.path.join(ROOT, "datasets", "mobgap", "*.csv"))):
        for mode in range(5):
            c.add("fuzz-delimited", "mobgap-mode%d" % mode, bytes([mode]) + head_lines(p, 30))
    for i, d in enumerate(DELIMITED):
        c.add("fuzz-delimited", "hand-%d" % i, b"\0" + d)
        c.add("fuzz-delimited", "hand-%d-mode%d" % (i, i % 5), bytes([i % 5]) + d)
    c.add("fuzz-delimited", "noheader", b"\x01" + b"0,0.1,0.2,9.8\n0.01,0.1,0.2,9.8\n")
    c.add("fuzz-delimited", "rate", b"\x02" + b"0.1,0.2,9.8,0.01,0.02,0.03\n0.1,0.2,9.8,0.01,0.02,0.03\n")

    # Dataset readers (hand-written in the layout of the real files).
    c.add("fuzz-motionsense", "device-motion", MS_DM + SEP + MS_SUBJECTS + SEP + MS_RAW + SEP + MS_RAW)
    c.add("fuzz-motionsense", "alone", MS_DM)
    c.add("fuzz-oxford", "walk", OXFORD_ACC + SEP + OXFORD_STEPS)
    c.add("fuzz-ipol", "set1", IPOL_LB + SEP + IPOL_JSON)
    c.add("fuzz-ipol", "set2", IPOL_LB2 + SEP + IPOL_GE)
    c.add("fuzz-ipol", "no-json", IPOL_LB)
    c.add("fuzz-mpower", "device-motion", MPOWER)
    c.add("fuzz-mpower", "raw", MPOWER_RAW)
    c.add("fuzz-weallwalk", "trial", WEALLWALK_CSV + SEP + WEALLWALK_XML)
    c.add("fuzz-spswhar", "phone", SPSWHAR + SEP + SPSWHAR_SUBJECTS + SEP + SPSWHAR_EXEC)
    c.add("fuzz-motiondatacollector", "walking", MDC)
    for name, data in wisdm_seeds():
        c.add("fuzz-wisdm", name, data)
    for name, data in ucihar_seeds():
        c.add("fuzz-ucihar", name, data, whole=True)
    c.add("fuzz-sensorlogger-json", "push", SL_PUSH)
    c.add("fuzz-sensorlogger-json", "export", SL_EXPORT_JSON)
    c.add("fuzz-sensorlogger-csv", "export", SL_ACC + SEP + SL_GYRO + SEP + SL_META + SEP + SL_ORIENT)
    for i, j in enumerate(JSON + [MPOWER, SL_PUSH, IPOL_JSON]):
        c.add("fuzz-json", "json-%d" % i, j)

    # Tracks.
    c.add("fuzz-gpx", "track", GPX)
    c.add("fuzz-gpx", "tricks", GPX_TRICKS)
    c.add("fuzz-tcx", "activity", TCX)
    pts = [(59.91 + 0.0001 * i, 10.75 + 0.0002 * i) for i in range(20)] + [(-33.86, 151.2), (0, 0), (89.9, -179.9)]
    c.add("fuzz-polyline", "route5", polyline(pts, 5))
    c.add("fuzz-polyline", "route6", polyline(pts, 6) + b"\n")
    c.add("fuzz-polyline", "google", b"_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    recs = [(1067000000 + i, 59.91 + 0.0001 * i, 10.75, 12.5 + i, 120 + i) for i in range(8)]
    fit = fit_file(recs)
    c.add("fuzz-fit", "activity-plain", b"\0" + fit)
    c.add("fuzz-fit", "activity-fixup", b"\1" + fit)

    # The model file: the shipped models, whole (a cut one is only a syntax error).
    for p in sorted(glob.glob(os.path.join(ROOT, "models", "*.json"))):
        with open(p, "rb") as f:
            c.add("fuzz-model", os.path.basename(p), f.read(), whole=True)

    # MAT-files and zlib streams, built here.
    for big in (False, True):
        for comp in (False, True):
            name = "broad-%s%s" % ("be" if big else "le", "-z" if comp else "")
            m = broad_mat(big=big, compress=comp)
            c.add("fuzz-mat", name, m)
            c.add("fuzz-broad", name, m)
    c.add("fuzz-mat", "empty", mat_file([]))
    # MAT-files with MATLAB objects (timetables, datetimes): the MATLAB-written files from
    # mat-io and the MATLAB Mobile layout sample, compressed as shipped and stored plainly
    # (so that mutations reach the subsystem bytes, not the zlib stream around them).
    mats = sorted(glob.glob(os.path.join(ROOT, "datasets", "mat-io", "*.mat")))
    mats += sorted(glob.glob(os.path.join(ROOT, "Tests", "HandWritten", "matlab-mobile", "*.mat")))
    for p in mats:
        with open(p, "rb") as f:
            m = f.read()
        base = os.path.basename(p)[:-4]
        for suffix, data in (("-z", m), ("", mat_uncompressed(m))):
            c.add("fuzz-mat", base + suffix, data)
            c.add("fuzz-matmobile", base + suffix, data)
    text = NATIVE * 3
    for lvl in (0, 1, 6, 9):
        c.add("fuzz-inflate", "zlib-%d" % lvl, zlib.compress(text, lvl))
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    c.add("fuzz-inflate", "raw", raw.compress(text) + raw.flush())
    c.add("fuzz-inflate", "zlib-rle", zlib.compress(b"\0" * 5000, 9))

    if os.path.isdir(a.shared):
        shared_seeds(c, a.shared)
    print("wrote %d seeds to %s" % (c.count, a.out))


def shared_seeds(c, d):
    """Heads of the real files (named shared-*, kept out of git)."""
    def p(*parts):
        return os.path.join(d, *parts)

    def first(pattern, n=1):
        return sorted(glob.glob(p(pattern)))[:n]

    for f in first("motionsense/A_DeviceMotion_data/*/sub_1.csv", 2):
        raw = f.replace("A_DeviceMotion_data", "B_Accelerometer_data")
        parts = [head_lines(f, 25), head_bytes(p("motionsense/data_subjects_info.csv"), 4000)]
        if os.path.exists(raw):
            parts += [head_lines(raw, 25), head_lines(raw, 25)]
        c.add("fuzz-motionsense", "shared-" + f.split("/")[-2], SEP.join(parts))
    for w in first("oxford/optimisation/data/*", 2):
        c.add("fuzz-oxford", "shared-" + os.path.basename(w),
              head_lines(p(w, "accelerometer.csv"), 40) + SEP + head_lines(p(w, "stepcounter.csv"), 5))
    for f in first("ipol/voisard2023_ipol497/GaitData/*_lb.txt", 1) + first("ipol/voisard_semiogram_ipol535/example_datasets/*/*_lb.txt", 1):
        js = f[:-7] + ".json"
        if not os.path.exists(js):
            js = f[:-7] + "_ge.json"
        c.add("fuzz-ipol", "shared-" + os.path.basename(f), head_lines(f, 30) + SEP + (head_bytes(js, 6000) if os.path.exists(js) else b""))
    for f in first("mpower/mhealthtools/*.json", 5):
        c.add("fuzz-mpower", "shared-" + os.path.basename(f), head_bytes(f, 3000))
        c.add("fuzz-json", "shared-" + os.path.basename(f), head_bytes(f, 3000))
    for f in first("weallwalk/sensor/*.csv", 2):
        name = os.path.basename(f)
        parts = name[:-4].split("_")   # iPhoneSensors, T1, ID4, 2R, GD
        xml = p("weallwalk/xml", "%s_%s_%s.xml" % (parts[1], parts[2], parts[4]))
        c.add("fuzz-weallwalk", "shared-" + name, head_lines(f, 20) + SEP + (head_bytes(xml, 8000) if os.path.exists(xml) else b""))
    for f in first("sp-sw-har/DATA/s0*/*.csv", 2):
        c.add("fuzz-spswhar", "shared-" + os.path.basename(f),
              head_lines(f, 30) + SEP + head_lines(p("sp-sw-har/DATA/subjects_info.csv"), 5) + SEP
              + head_lines(p("sp-sw-har/DATA/executions_info.csv"), 5))
        c.add("fuzz-delimited", "shared-spswhar-" + os.path.basename(f), b"\0" + head_lines(f, 30))
    for f in first("apps/motiondatacollector/*/*.csv", 2):
        c.add("fuzz-motiondatacollector", "shared-" + os.path.basename(f), head_lines(f, 30))
        c.add("fuzz-delimited", "shared-mdc-" + os.path.basename(f), b"\0" + head_lines(f, 30))
    for f in first("apps/phyphox/*.csv", 3) + first("apps/hyperimu/*.csv", 3):
        c.add("fuzz-delimited", "shared-app-" + os.path.basename(f), b"\0" + head_lines(f, 30))
    for f in first("tracks/*/*.gpx", 5):
        c.add("fuzz-gpx", "shared-" + os.path.basename(f), head_bytes(f, MAX_SEED))
    for f in first("tracks/*/*.tcx", 2):
        c.add("fuzz-tcx", "shared-" + os.path.basename(f), head_bytes(f, MAX_SEED))
    for f in first("tracks/*/*.fit", 6):
        c.add("fuzz-fit", "shared-" + os.path.basename(f), b"\1" + head_bytes(f, 4000))
    for f in first("tracks/*/*.polyline*", 2):
        c.add("fuzz-polyline", "shared-" + os.path.basename(f), head_bytes(f, 2000))
    for f in first("broad/data_mat/*.mat", 1):
        c.add("fuzz-mat", "shared-head-" + os.path.basename(f), head_bytes(f, MAX_SEED))


if __name__ == "__main__":
    main()
