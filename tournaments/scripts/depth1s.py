#!/usr/bin/env python3
# Depth reached in 1 s on the tests/data/bench positions, through the protocol; works for
# any brain that prints "depth D-S" in its MESSAGE lines (Quinto, Rapfi).
# usage: depth1s.py BRAIN [WORKDIR] [POSITIONS]   (POSITIONS: tests/data/bench/positions.txt)
import subprocess, sys, re
brain = sys.argv[1]
cwd = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "-" else None
positions = sys.argv[3] if len(sys.argv) > 3 else "tests/data/bench/positions.txt"
rules = {"freestyle": 0, "standard": 1, "renju": 4}
for line in open(positions):
    f = line.split("|")[0].split(); rule, size, moves = f[0], int(f[1]), f[2:]
    n = len(moves); cmds = [f"INFO rule {rules[rule]}", "INFO timeout_turn 1000", "INFO random 0", f"START {size}", "BOARD"]
    for i, m in enumerate(moves): cmds.append(f"{m},{1 if (i % 2) == (n % 2) else 2}")
    cmds.append("DONE")
    p = subprocess.Popen([brain], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write("\n".join(cmds) + "\n"); p.stdin.flush()
    depth = "?"
    while True:
        l = p.stdout.readline()
        if not l: break
        m = re.search(r"[Dd]epth (\d+)-(\d+)", l)
        if m: depth = m.group(1) + "-" + m.group(2)
        if re.match(r"^\d+,\d+\s*$", l): break
    p.stdin.write("END\n"); p.stdin.flush(); p.wait()
    print(f"{rule:9s} {size}  {len(moves):2d} stones  depth {depth}")
