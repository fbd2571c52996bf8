#!/usr/bin/env python3
# usage: proto_figures.py PATH-TO-BRAIN   (the timing figures of the protocol issue)
# Issue 3 figures: START-to-OK, reply time vs limits, stop latency, peak memory.
import subprocess, time, sys, statistics, os, select
BRAIN = sys.argv[1]
def spawn():
    return subprocess.Popen([BRAIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(p, *lines):
    p.stdin.write("".join(l + "\n" for l in lines)); p.stdin.flush()
BUF = {}
def reply(p, timeout=30):
    end = time.time() + timeout
    fd = p.stdout.fileno()
    while True:
        b = BUF.get(p.pid, b"")
        if b"\n" in b:
            l, b = b.split(b"\n", 1); BUF[p.pid] = b
            l = l.decode().strip()
            if l.startswith("MESSAGE") or l.startswith("DEBUG") or not l: continue
            return l
        r, _, _ = select.select([fd], [], [], max(0, end - time.time()))
        if not r: raise RuntimeError("timeout")
        BUF[p.pid] = b + os.read(fd, 65536)
def peak_kib(p):
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith("VmHWM:"): return int(l.split()[1])
BOARD = ["BOARD", "10,10,1", "11,10,2", "11,13,1", "9,11,2", "10,12,1", "12,12,2", "12,11,1", "10,11,2"]
res = []
for i in range(20):
    p = spawn(); time.sleep(0.05)
    t = time.time(); send(p, "START 20", "INFO max_memory 367001600"); r = reply(p); res.append((time.time() - t) * 1000)
    assert r == "OK"; send(p, "END"); p.wait()
print("START-to-OK over 20 runs (350 MB limit): median %.2f ms, max %.2f ms" % (statistics.median(res), max(res)))
def timed(turn, match=None, left=None, runs=5):
    out = []
    for i in range(runs):
        p = spawn(); send(p, f"INFO timeout_turn {turn}")
        if match: send(p, f"INFO timeout_match {match}")
        send(p, "START 20"); reply(p)
        if left is not None: send(p, f"INFO time_left {left}")
        send(p, *BOARD); t = time.time(); send(p, "DONE"); reply(p, 30); out.append((time.time() - t) * 1000)
        send(p, "END"); p.wait()
    return out
for turn, match, left, label in [(100, None, None, "timeout_turn 100"), (1000, None, None, "timeout_turn 1000"), (30000, 180000, 300, "time_left 300 (turn 30000, match 180000)"), (0, None, None, "timeout_turn 0")]:
    r = timed(turn, match, left)
    print("reply with %s: max %.1f ms, mean %.1f ms over %d runs" % (label, max(r), statistics.mean(r), len(r)))
for cmd in ["YXSTOP", "INFO timeout_turn 0", "STOP"]:
    lat = []
    for i in range(5):
        p = spawn(); send(p, "INFO timeout_turn 60000", "START 20"); reply(p); send(p, *BOARD, "DONE")
        time.sleep(0.5); t = time.time(); send(p, cmd); reply(p); lat.append((time.time() - t) * 1000)
        send(p, "END"); p.wait()
    print("stop latency after %s: max %.1f ms, mean %.1f ms" % (cmd, max(lat), statistics.mean(lat)))
for mb, think in [(50, 5000), (350, 10000)]:
    p = spawn(); send(p, f"INFO max_memory {mb << 20}", f"INFO timeout_turn {think}", "START 20"); reply(p)
    send(p, *BOARD, "DONE"); reply(p, 60); pk = peak_kib(p)
    send(p, "END"); p.wait()
    print("peak resident memory under a %d MB limit after a %d s search on 20x20: %.1f MiB" % (mb, think // 1000, pk / 1024))
