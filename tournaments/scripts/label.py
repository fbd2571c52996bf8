#!/usr/bin/env python3
# Judged positions for `pbrain-quinto tune ... --judged`: every position of a
# `pbrain-quinto tune RULE SIZE --quiet` file ("GAME\tRESULT\tMOVES") is given
# to a brain through the Gomocup protocol (BOARD, a fixed search depth with
# INFO max_depth), and its last "MESSAGE depth D-S ev V" line before the move
# (Quinto, or Rapfi with message_mode = "ucilike") becomes the position's value
# for the side to move. Writes "GAME\tRESULT\tEV\tMOVES" lines in the input's
# order (EV empty when the brain printed none). Several brains at once (--jobs),
# each on its own contiguous share of the games.
#
# usage: label.py BRAIN RULE SIZE QUIET.tsv OUT.tsv [--depth 8] [--jobs 2]
#                 [--dir DIR] [--memory BYTES] [--limit N] [--clear]
# example (Rapfi classical as the judge):
#   ./pbrain-quinto tune freestyle 15 --quiet quiet.tsv games.tsv
#   label.py /path/pbrain-rapfi freestyle 15 quiet.tsv judged.tsv --dir /path --depth 8
import argparse
import multiprocessing
import os
import sys
import time

from gomocup import RULES, Brain  # beside this file


def judge(args):
    a, lines, out_path, worker = args
    b = Brain([a.brain], cwd=a.dir, name=f"worker {worker}")
    b.start(a.size, (("rule", RULES[a.rule]), ("max_memory", a.memory), ("timeout_turn", 60000),
                     ("timeout_match", 0), ("time_left", 2147483647), ("max_depth", a.depth)))
    t0, done = time.time(), 0
    with open(out_path, "w") as out:
        for line in lines:
            game, result, moves = line.rstrip("\n").split("\t")
            if a.clear:
                b.send("YXHASHCLEAR")  # the value no longer depends on the positions before
            b.board(moves.split(";"))
            _, ev = b.reply()
            b.settle()
            out.write(f"{game}\t{result}\t{ev or ''}\t{moves}\n")
            done += 1
            if worker == 0 and done % 1000 == 0:
                rate = done / (time.time() - t0)
                print(f"worker 0: {done} of {len(lines)} ({rate:.1f}/s)", file=sys.stderr, flush=True)
    b.end()
    return out_path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("brain")
    ap.add_argument("rule", choices=sorted(RULES))
    ap.add_argument("size", type=int)
    ap.add_argument("quiet")
    ap.add_argument("out")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dir", default=None, help="working folder of the brain")
    ap.add_argument("--memory", type=int, default=128 * 1024 * 1024)
    ap.add_argument("--limit", type=int, default=0, help="judge only the first N positions")
    ap.add_argument("--clear", action="store_true",
                    help="clear the brain's hash before every position (YXHASHCLEAR)")
    a = ap.parse_args()
    with open(a.quiet) as f:
        lines = [line for line in f if line.count("\t") == 2]
    if a.limit:
        lines = lines[:a.limit]
    # contiguous shares that end at a game's end
    shares, start = [], 0
    for w in range(a.jobs):
        end = len(lines) if w == a.jobs - 1 else max(start, len(lines) * (w + 1) // a.jobs)
        while 0 < end < len(lines) and lines[end].split("\t")[0] == lines[end - 1].split("\t")[0]:
            end += 1
        shares.append(lines[start:end])
        start = end
    parts = [(a, s, f"{a.out}.part{w}", w) for w, s in enumerate(shares)]
    with multiprocessing.Pool(a.jobs) as pool:
        paths = pool.map(judge, parts)
    with open(a.out, "w") as out:
        for path in paths:
            with open(path) as f:
                out.write(f.read())
            os.remove(path)
    print(f"{len(lines)} positions judged into {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
