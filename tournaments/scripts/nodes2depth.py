#!/usr/bin/env python3
# Nodes and seconds a brain needs to reach a fixed depth on the positions of recorded games
# (quinto-manager -results files), through the protocol: the measure for a change that should
# leave the search's moves alone and only make it faster (speed, ordering, table use), where a
# match cannot resolve the few percent it gains or costs. Every brain that honours
# "INFO max_depth" and prints "n NODES" in its MESSAGE lines works (Quinto does).
#
# usage: nodes2depth.py RESULTS.tsv BRAIN DEPTH [--games N] [--rule N] [--size N]
#                       [--from K] [--to K] [--step K]
#   positions: the first K stones of each game, K = from, from + step, ... below min(to, length - 2),
#   each sent as RESTART + BOARD to one brain process; --step 2 gives one side's positions of a
#   game in order, as in a game (what the brain keeps from one move to the next counts).
import argparse
import re
import time

from gomocup import Brain

ap = argparse.ArgumentParser()
ap.add_argument("results"); ap.add_argument("brain"); ap.add_argument("depth", type=int)
ap.add_argument("--games", type=int, default=20)
ap.add_argument("--rule", type=int, default=0, help="Gomocup INFO rule (0 freestyle, 1 standard, 4 renju)")
ap.add_argument("--size", type=int, default=15)
ap.add_argument("--from", dest="first", type=int, default=12)
ap.add_argument("--to", type=int, default=48)
ap.add_argument("--step", type=int, default=5)
a = ap.parse_args()

games = [l.rstrip("\n").split("\t") for l in open(a.results) if l.strip() and not l.startswith("game")]
b = Brain([a.brain], name=a.brain)
b.start(a.size, [("rule", a.rule), ("timeout_turn", 600000), ("timeout_match", 0),
                 ("max_depth", a.depth), ("random", 0)])
nodes = 0
seconds = 0.0
moves = []
for g in games[:a.games]:
    mv = g[7].split(";")
    for k in range(a.first, min(len(mv) - 2, a.to), a.step):
        b.send("RESTART")
        b.reply()  # OK
        t0 = time.time()
        b.board(mv[:k])
        last = ""
        while True:  # the last MESSAGE before the move holds the search's node count
            line = b.readline()
            if line.startswith("MESSAGE"):
                last = line
            elif re.match(r"^\d+,\d+$", line):
                moves.append(line)
                break
        seconds += time.time() - t0
        n = re.search(r" n (\d+)", last)
        nodes += int(n.group(1)) if n else 0
b.end()
# the moves' digest tells whether two builds searched the same trees
digest = 0
for m in moves:
    digest = (digest * 131 + sum(map(ord, m))) % 1000003
print(f"{a.brain.split('/')[-1]}: {len(moves)} positions, depth {a.depth}: {nodes} nodes, {seconds:.1f} s, moves digest {digest}")
