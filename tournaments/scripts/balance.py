#!/usr/bin/env python3
# Balanced openings by search: random three-stone openings near the centre,
# each judged by a brain through the Gomocup protocol (the last "MESSAGE depth
# D-S ev V ..." line before its move, as Quinto and Rapfi print it), kept when
# |V| <= --max-ev for the side to move. Prints testdata lines
# ("RULE SIZE x,y x,y x,y | opening # balance.py NAME ev=V ms=T") on stdout,
# the judged candidates on stderr. Works with any brain that prints such lines.
#
# usage: balance.py BRAIN RULE SIZE COUNT [--ms 1000] [--max-ev 80] [--seed 1]
#                   [--window 2] [--dir DIR] [--memory BYTES] [--info KEY=VALUE ...]
# example (Rapfi classical as the judge, 20x20 freestyle):
#   balance.py /path/pbrain-rapfi freestyle 20 40 --dir /path --ms 2000 > balanced-f20.txt
import argparse
import random
import sys

from gomocup import RULES, Brain  # beside this file


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("brain")
    ap.add_argument("rule", choices=sorted(RULES))
    ap.add_argument("size", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--ms", type=int, default=1000, help="search time per opening")
    ap.add_argument("--max-ev", type=int, default=80, help="largest |ev| kept")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--window", type=int, default=2, help="stones within this of the centre")
    ap.add_argument("--dir", default=None, help="working folder of the brain")
    ap.add_argument("--memory", type=int, default=350 * 1024 * 1024)
    ap.add_argument("--info", action="append", default=[], help="extra INFO KEY=VALUE")
    ap.add_argument("--max-tries", type=int, default=0, help="candidates judged at most (default 20 x COUNT)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    name = a.brain.rsplit("/", 1)[-1]
    b = Brain([a.brain], cwd=a.dir, name=name)

    cx = cy = a.size // 2
    seen, kept, tries = set(), 0, 0
    max_tries = a.max_tries or 20 * a.count
    while kept < a.count and tries < max_tries:
        cells = [(cx, cy)]
        while len(cells) < 3:
            c = (cx + rng.randint(-a.window, a.window), cy + rng.randint(-a.window, a.window))
            if c not in cells:
                cells.append(c)
        key = tuple(cells)
        if key in seen:
            continue
        seen.add(key)
        tries += 1
        b.start(a.size, [("rule", RULES[a.rule]), ("max_memory", a.memory), ("timeout_turn", a.ms),
                         ("timeout_match", 0)] + [kv.split("=", 1) for kv in a.info])
        b.board([f"{x},{y}" for x, y in cells])  # white (the side to move) owns the second stone
        move, ev = b.reply()
        b.settle()
        ev = None if ev is None or "M" in ev else int(ev)
        text = " ".join(f"{x},{y}" for x, y in cells)
        good = ev is not None and abs(ev) <= a.max_ev
        print(f"{text}: ev {ev} (white to move), move {move}{'  kept' if good else ''}",
              file=sys.stderr, flush=True)
        if good:
            kept += 1
            print(f"{a.rule} {a.size} {text} | opening # balance.py {name} ev={ev} ms={a.ms}",
                  flush=True)
    b.end()
    if kept < a.count:
        sys.exit(f"only {kept} of {a.count} openings within {a.max_ev} after {tries} tries")


if __name__ == "__main__":
    main()
