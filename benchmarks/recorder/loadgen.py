#!/usr/bin/env python3
"""Bounded UDP load generator for `motus record` (loopback only).

Starts `motus record --source udp --packet-format hyperimu` on 127.0.0.1, sends STREAMS
senders x RATE Hz HyperIMU packets (one accelerometer sample each, epoch-ms timestamps) for
SECONDS, stops the recorder with SIGTERM, then counts what the recording holds per stream.
Prints the achieved rate and the loss count; exits 1 on any loss.

usage: loadgen.py MOTUS_BINARY [STREAMS] [RATE] [SECONDS]
"""
import os, signal, socket, subprocess, sys, tempfile, time

binary = sys.argv[1]
streams = int(sys.argv[2]) if len(sys.argv) > 2 else 20
rate = float(sys.argv[3]) if len(sys.argv) > 3 else 400
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 3
assert seconds <= 60 and streams <= 100 and rate <= 2000, "bounded run only"

out = tempfile.mkdtemp(prefix="motus-load-") + "/load.motus"
probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
probe.bind(("127.0.0.1", 0)); port = probe.getsockname()[1]; probe.close()
rec = subprocess.Popen([binary, "record", "--source", "udp", "--packet-format", "hyperimu", "--sensors", "acc",
                        "--bind", "127.0.0.1", "--port", str(port), "--out", out], stderr=subprocess.PIPE, text=True)
time.sleep(1.0)
socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(streams)]
total = int(rate * seconds)
t0 = time.monotonic(); n = 0; sent = 0
while n < total:
    due = min(total, int((time.monotonic() - t0) * rate) + 1)
    while n < due:
        pkt = ("%d,%.3f,0.5,9.81\r\n" % (1700000000000 + n * 1000 // int(rate), n * 0.001)).encode()
        for s in socks:
            s.sendto(pkt, ("127.0.0.1", port)); sent += 1
        n += 1
    time.sleep(0.005)
elapsed = time.monotonic() - t0
time.sleep(1.0)
rec.send_signal(signal.SIGTERM)
_, err = rec.communicate(timeout=30)
counts = {}
with open(out) as f:
    for line in f:
        if line[:1] in "#@" or not line.strip():
            continue
        name = line.split(",", 1)[0]
        counts[name] = counts.get(name, 0) + 1
written = sum(counts.values())
loss = streams * total - written
print("loadgen: %d streams x %g Hz for %gs on 127.0.0.1: sent %d in %.2fs (%.0f packets/s), recorded %d in %d streams, loss %d"
      % (streams, rate, seconds, sent, elapsed, sent / elapsed, written, len(counts), loss))
print("recorder said: " + err.strip().splitlines()[-1] if err.strip() else "")
sys.exit(1 if loss else 0)
