#!/usr/bin/env python3
"""Hostile-client figures for `motus record` (issue #18), against the release binary.

Runs four scenarios and prints their figures:

  udp     20 SensorStream senders x 400 Hz over UDP for --seconds, with 10 % junk packets and
          about 1 % absurd timestamps (1e300, 1e26, 9e9, -1e12, nan) mixed in: good samples
          sent vs written, and what the recorder counted.
  kill9   --tries runs of one 400 Hz UDP stream killed with SIGKILL after 1-2 s: seconds of
          data sent but not in the file (stream time of the last sample sent minus the last
          sample written).
  bodies  300 clients each announcing and sending an 8 MiB body without the token (30 at a
          time): the recorder's peak RSS (VmHWM) and the answers the clients got.
  slow    500 connections that send half a request line and stall, the recorder under a
          256-descriptor limit: is a real client served, how fast, and how fast are the slow
          ones closed.
  ports   one packet from each of 20,000 UDP source ports: streams made, packets refused.

Usage: python3 benchmarks/recorder/bench_recorder.py [--binary .build/release/motus] [scenario ...]
Python 3 standard library only; Linux (reads /proc).
"""
import argparse
import json
import math
import os
import random
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time


def start_recorder(binary, args, nofile=None):
    """Starts `motus record ARGS` and returns (process, port) once it listens."""
    def limits():
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    p = subprocess.Popen([binary, "record"] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=limits)
    line = p.stderr.readline().decode(errors="replace")
    m = re.search(r" on [^ ]+:(\d+) to ", line)
    if not m:
        p.kill()
        raise SystemExit("recorder did not start: " + line + p.stderr.read().decode(errors="replace"))
    # Keep draining stderr so the recorder never blocks on it.
    lines = []
    t = threading.Thread(target=lambda: lines.extend(l.decode(errors="replace") for l in p.stderr), daemon=True)
    t.start()
    p.stderr_lines = lines
    p.stderr_thread = t
    return p, int(m.group(1))


def stop_recorder(p):
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=30)
    p.stderr_thread.join(timeout=5)
    return "".join(p.stderr_lines)


def summary_counts(text):
    m = re.search(r"wrote .*?: (\d+) samples in (\d+) streams; dropped (\d+), late (\d+), bad time (\d+), malformed (\d+), "
                  r"ignored (\d+), refused (\d+) from (\d+) senders", text)
    if not m:
        return None
    keys = ["written", "streams", "dropped", "late", "bad_time", "malformed", "ignored", "refused_packets", "refused_senders"]
    return dict(zip(keys, map(int, m.groups())))


def read_native(path):
    """Samples per stream and each stream's last time, from a .motus file (complete lines only)."""
    counts, last = {}, {}
    with open(path, "rb") as f:
        data = f.read()
    end = data.rfind(b"\n")
    for raw in data[:end + 1].split(b"\n"):
        if not raw or raw[:1] in (b"@", b"#"):
            continue
        parts = raw.split(b",")
        if len(parts) < 2:
            continue
        name = parts[0].decode()
        try:
            t = float(parts[1])
        except ValueError:
            continue
        counts[name] = counts.get(name, 0) + 1
        last[name] = max(last.get(name, -math.inf), t)
    return counts, last


def udp_scenario(binary, seconds, rate=400, streams=20, junk=0.10, absurd=0.01):
    out = tempfile.mkdtemp(prefix="motus-bench-") + "/udp.motus"
    p, port = start_recorder(binary, ["--source", "udp", "--packet-format", "sensorstream", "--port", "0", "--out", out])
    rnd = random.Random(18)
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(streams)]
    junk_lines = [b"garbage", b"3, 3, 1,2", b"\x1b]0;owned\x07", b"1.5, 3, x,y,z", b"", b"1.0,,3", b"{\"acc\":[1,2,3]}"]
    absurd_times = ["1e300", "1e26", "9000000000", "-1e12", "nan"]
    good = junk_sent = absurd_sent = 0
    total = int(rate * seconds)
    t0 = time.monotonic()
    i = 0
    while i < total:
        due = min(total, int((time.monotonic() - t0) * rate) + 1)
        while i < due:
            for k, s in enumerate(socks):
                r = rnd.random()
                if r < junk:
                    s.sendto(rnd.choice(junk_lines), ("127.0.0.1", port)); junk_sent += 1
                elif r < junk + absurd:
                    s.sendto(f"{rnd.choice(absurd_times)}, 3, 0.1,0.2,9.8".encode(), ("127.0.0.1", port)); absurd_sent += 1
                else:
                    s.sendto(f"{1000 + k + i / rate:.4f}, 3, {i * 0.001:.3f},0.5,9.81".encode(), ("127.0.0.1", port)); good += 1
            i += 1
        time.sleep(0.004)
    send_s = time.monotonic() - t0
    time.sleep(1.0)
    text = stop_recorder(p)
    counts, _ = read_native(out)
    c = summary_counts(text) or {}
    written = sum(counts.values())
    print(f"udp: {streams} streams x {rate} Hz for {send_s:.1f} s: good samples sent {good}, written {written} "
          f"(lost {good - written}); junk packets {junk_sent} (malformed {c.get('malformed')}), absurd times {absurd_sent} "
          f"(bad time {c.get('bad_time')}); late {c.get('late')}, dropped {c.get('dropped')}; streams in file {len(counts)}")
    return {"good_sent": good, "written": written, "junk_sent": junk_sent, "absurd_sent": absurd_sent, **c}


def kill9_scenario(binary, tries, rate=400):
    losses = []
    for n in range(tries):
        out = tempfile.mkdtemp(prefix="motus-bench-") + "/k.motus"
        p, port = start_recorder(binary, ["--source", "udp", "--packet-format", "sensorstream", "--port", "0", "--out", out])
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        run_for = 1.0 + random.Random(n).random()
        t0 = time.monotonic()
        i = 0
        while time.monotonic() - t0 < run_for:
            due = int((time.monotonic() - t0) * rate) + 1
            while i < due:
                s.sendto(f"{100 + i / rate:.4f}, 3, 0.1,0.2,9.8".encode(), ("127.0.0.1", port))
                i += 1
            time.sleep(0.002)
        last_sent = 100 + (i - 1) / rate
        p.kill()
        p.wait()
        _, last = read_native(out)
        lost = last_sent - last.get("acc", 100 - 1 / rate)
        losses.append(lost)
    print(f"kill -9: {tries} tries at {rate} Hz: seconds of data lost max {max(losses):.3f}, mean {sum(losses) / len(losses):.3f} "
          f"({', '.join(f'{x:.3f}' for x in losses)})")
    return {"max_lost_s": max(losses), "mean_lost_s": sum(losses) / len(losses), "tries": losses}


def vm_hwm_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmHWM:", "VmRSS:")):
                yield line.split(":")[0], int(line.split()[1])


def bodies_scenario(binary, clients=300, size=8 << 20, parallel=30):
    out = tempfile.mkdtemp(prefix="motus-bench-") + "/b.motus"
    p, port = start_recorder(binary, ["--source", "http", "--port", "0", "--token", "s3cret", "--out", out])
    base = dict(vm_hwm_kib(p.pid))
    body = b"x" * size
    answers = {}
    lock = threading.Lock()

    def client():
        try:
            c = socket.create_connection(("127.0.0.1", port), timeout=10)
            c.sendall(f"POST /data HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n".encode())
            try:
                c.sendall(body)
            except OSError:
                pass
            try:
                reply = c.recv(64).decode(errors="replace")
            except OSError as e:
                reply = type(e).__name__
            c.close()
            key = reply.split("\r\n")[0][9:12] if reply.startswith("HTTP/1.1") else (reply or "closed")
        except OSError as e:
            key = type(e).__name__
        with lock:
            answers[key] = answers.get(key, 0) + 1

    t0 = time.monotonic()
    pending = list(range(clients))
    while pending:
        batch = [threading.Thread(target=client) for _ in pending[:parallel]]
        pending = pending[parallel:]
        for t in batch: t.start()
        for t in batch: t.join()
    took = time.monotonic() - t0
    after = dict(vm_hwm_kib(p.pid))
    ok = http_post(port, "/data?token=s3cret", sensor_logger_message())
    stop_recorder(p)
    print(f"bodies: {clients} unauthenticated {size >> 20} MiB bodies ({parallel} at a time) in {took:.1f} s: "
          f"recorder RSS {base['VmRSS'] / 1024:.1f} MB before, peak {after['VmHWM'] / 1024:.1f} MB, now {after['VmRSS'] / 1024:.1f} MB; "
          f"answers {answers}; an authenticated request afterwards: {ok}")
    return {"rss_before_mb": base["VmRSS"] / 1024, "peak_rss_mb": after["VmHWM"] / 1024, "answers": answers, "authenticated_after": ok}


def sensor_logger_message():
    now = int(time.time() * 1e9)
    readings = [{"name": "accelerometer", "time": now - 1_000_000_000 + k * 10_000_000, "values": {"x": 0.1, "y": 0.2, "z": 9.8}}
                for k in range(50)]
    return json.dumps({"messageId": 1, "sessionId": "S", "deviceId": "D", "payload": readings}).encode()


def http_post(port, path, body, timeout=10):
    """One POST; returns (status, seconds) or the error's name."""
    t0 = time.monotonic()
    try:
        c = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        c.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        reply = b""
        while True:
            d = c.recv(4096)
            if not d:
                break
            reply += d
        c.close()
        return (int(reply[9:12]) if reply.startswith(b"HTTP/1.1") else "no answer", round(time.monotonic() - t0, 3))
    except OSError as e:
        return (type(e).__name__, round(time.monotonic() - t0, 3))


def slow_scenario(binary, connections=500, nofile=256, header_timeout=5):
    out = tempfile.mkdtemp(prefix="motus-bench-") + "/s.motus"
    p, port = start_recorder(binary, ["--source", "http", "--port", "0", "--out", out], nofile=nofile)
    import queue
    fresh = queue.Queue()
    refused = [0]

    def opener():
        """Opens the slow connections on its own thread (a connect may wait on a full backlog)."""
        for n in range(connections):
            try:
                c = socket.create_connection(("127.0.0.1", port), timeout=5)
                c.sendall(b"POST /data HTTP/1.1\r\nHost: x\r\n")   # and then nothing
                c.setblocking(False)
                fresh.put((c, time.monotonic()))
            except OSError:
                refused[0] += 1
        fresh.put(None)

    sel = selectors.DefaultSelector()
    opened = {}
    closed_after = []
    t0 = time.monotonic()
    th = threading.Thread(target=opener)
    th.start()
    served = None
    opening = True
    deadline = None
    while opening or (opened and time.monotonic() < deadline):
        while True:
            try:
                item = fresh.get_nowait()
            except queue.Empty:
                break
            if item is None:
                opening = False
                opened_s = time.monotonic() - t0
                deadline = time.monotonic() + header_timeout + 10
                continue
            c, at = item
            opened[c.fileno()] = (c, at)
            sel.register(c, selectors.EVENT_READ)
        if served is None and len(opened) + len(closed_after) >= connections // 2:
            # A real client while the slow ones come and hang on (sent from its own thread).
            holder = {}
            real = threading.Thread(target=lambda: holder.update(r=http_post(port, "/data", sensor_logger_message())))
            real.start()
            served = holder
        for key, _ in sel.select(timeout=0.01):
            c, at = opened[key.fd]
            try:
                d = c.recv(4096)
            except OSError:
                d = b""
            if not d:
                closed_after.append(time.monotonic() - at)
                sel.unregister(c)
                c.close()
                del opened[key.fd]
    th.join()
    real.join()
    still_open = len(opened)
    for c, _ in opened.values():
        c.close()
    served_after = http_post(port, "/data", sensor_logger_message())
    stop_recorder(p)
    closed_after.sort()
    def q(f):
        return closed_after[min(len(closed_after) - 1, int(f * len(closed_after)))] if closed_after else float("nan")
    print(f"slow: {connections} slow-header connections opened in {opened_s:.2f} s (recorder under a {nofile}-descriptor limit; "
          f"{refused[0]} failed to connect): a real client sent among them got {served['r'][0]} in {served['r'][1]} s; "
          f"the recorder closed {len(closed_after)} slow ones, after median {q(0.5):.3f} s, 90 % {q(0.9):.3f} s, last {q(1.0):.2f} s; "
          f"{still_open} still open; a real client afterwards got {served_after[0]}")
    return {"opened_s": opened_s, "served_during": served["r"], "closed": len(closed_after), "close_median_s": q(0.5),
            "close_p90_s": q(0.9), "close_max_s": q(1.0), "still_open": still_open, "served_after": served_after}


def ports_scenario(binary, ports=20000):
    """One SensorStream packet from each of `ports` source ports: how many streams result."""
    out = tempfile.mkdtemp(prefix="motus-bench-") + "/p.motus"
    p, port = start_recorder(binary, ["--source", "udp", "--packet-format", "sensorstream", "--port", "0", "--out", out])
    used = set()
    t0 = time.monotonic()
    for k in range(ports):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        used.add(s.getsockname()[1])
        s.sendto(f"{1000 + time.monotonic() - t0:.4f}, 3, 0.1,0.2,9.8".encode(), ("127.0.0.1", port))
        s.close()
    took = time.monotonic() - t0
    time.sleep(1.0)
    peak = dict(vm_hwm_kib(p.pid))["VmHWM"] / 1024
    text = stop_recorder(p)
    c = summary_counts(text) or {}
    counts, _ = read_native(out)
    print(f"ports: {ports} packets from {len(used)} distinct source ports in {took:.1f} s: {len(counts)} streams in the file, "
          f"{c.get('written')} samples written (bad time {c.get('bad_time')}, late {c.get('late')}), "
          f"{c.get('refused_packets')} packets refused from {c.get('refused_senders')} senders (counted up to 4,096); "
          f"recorder peak RSS {peak:.1f} MB")
    return {"distinct_ports": len(used), "streams": len(counts), "peak_rss_mb": peak, **c}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=".build/release/motus")
    ap.add_argument("--seconds", type=float, default=10, help="udp scenario length")
    ap.add_argument("--tries", type=int, default=10, help="kill -9 tries")
    ap.add_argument("scenarios", nargs="*", default=["udp", "kill9", "bodies", "slow", "ports"])
    a = ap.parse_args()
    if not os.access(a.binary, os.X_OK):
        raise SystemExit(f"{a.binary}: not built (swift build -c release --product motus)")
    results = {}
    for s in a.scenarios:
        if s == "udp": results[s] = udp_scenario(a.binary, a.seconds)
        elif s == "kill9": results[s] = kill9_scenario(a.binary, a.tries)
        elif s == "bodies": results[s] = bodies_scenario(a.binary)
        elif s == "slow": results[s] = slow_scenario(a.binary)
        elif s == "ports": results[s] = ports_scenario(a.binary)
        else: raise SystemExit(f"unknown scenario {s}: udp, kill9, bodies, slow or ports")
    print(json.dumps(results, default=str))


if __name__ == "__main__":
    main()
