#!/usr/bin/env python3
# Does a brain prove the forced wins that decided games, and how fast? For every position of a
# file (tests/data/mates/decisive-f20.txt: the positions just after the moves Quinto lost games
# with against Rapfi, the winner to move), the brain thinks for a turn and the script notes the
# first "MESSAGE depth D-S ev +Mn ... n N ... tm T" line that claims a win for the side to move:
# its time, nodes and depth. Works for any brain that prints such lines (Quinto; Rapfi with
# message_mode = "ucilike"). One process for the whole file, settled between positions, so
# only the first position pays the process start.
#
# usage: mates.py BRAIN POSITIONS [--dir DIR] [--ms 1000] [--info KEY=VALUE ...]
#   POSITIONS: lines "RULE SIZE x,y x,y ... | has_win # comment" (tests/data's format; stones from
#   black's first); an "Mn" in the comment is shown beside the result (the judge's mate length)
import argparse
import re
import statistics
import sys

from gomocup import RULES, Brain

def field(words, key):
    for i, w in enumerate(words[:-1]):
        if w == key:
            return words[i + 1]
    return None


def main():
    ap = argparse.ArgumentParser(description="Which forced wins of a positions file a brain proves, and how fast.")
    ap.add_argument("brain")
    ap.add_argument("positions")
    ap.add_argument("--dir", default=None, help="working directory of the brain")
    ap.add_argument("--ms", type=int, default=1000, help="turn time (default 1000)")
    ap.add_argument("--info", action="append", default=[], help="extra INFO KEY=VALUE")
    a = ap.parse_args()
    for kv in a.info:
        if "=" not in kv:
            ap.error(f"--info {kv!r}: KEY=VALUE expected")

    lines = []
    for raw in open(a.positions):
        line, _, comment = raw.partition("#")
        if not line.strip():
            continue
        f = line.split("|")[0].split()
        m = re.search(r"\bM\d+", comment)  # the mate length another brain reported, if given
        lines.append((f[0], int(f[1]), f[2:], m.group(0) if m else "-"))
    if not lines:
        sys.exit("no positions")

    brain, started = None, None
    proved, times = 0, []
    for rule, size, moves, expect in lines:
        if started != (rule, size):
            if brain:
                brain.end()
            brain = Brain([a.brain], cwd=a.dir)
            infos = [("timeout_turn", a.ms), ("timeout_match", 0), ("max_memory", 350000000),
                     ("rule", RULES[rule])]
            infos += [tuple(kv.split("=", 1)) for kv in a.info]
            brain.start(size, infos)
            started = (rule, size)
        brain.board(moves)
        first, last = None, None
        while True:
            line = brain.readline()
            if line.startswith("MESSAGE") and " ev " in line:
                words = line.split()
                ev = field(words, "ev") or ""
                last = words
                if first is None and ev.startswith("+M"):
                    first = words
            elif line and not line.startswith(("MESSAGE", "DEBUG")):
                break
        brain.settle()
        if first:
            proved += 1
            tm = field(first, "tm") or ""
            times.append(int(tm) if tm.isdigit() else a.ms)
            print(f"{len(moves):3d} stones  {expect:5s}  proved {field(first, 'ev'):5s} at "
                  f"{field(first, 'tm')} ms, {field(first, 'n')} nodes, depth {field(first, 'depth')}"
                  f"  -> {line}", flush=True)
        else:
            print(f"{len(moves):3d} stones  {expect:5s}  not proved (last: depth "
                  f"{field(last or [], 'depth')} ev {field(last or [], 'ev')})  -> {line}", flush=True)
    brain.end()
    med = statistics.median(times) if times else None
    print(f"proved {proved} of {len(lines)} within {a.ms} ms"
          + (f"; median time to the proof {med:.0f} ms" if med is not None else ""))


if __name__ == "__main__":
    main()
