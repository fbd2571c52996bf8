#!/usr/bin/env python3
# How often each engine makes a four, from quinto-manager -results files: the
# share of an engine's moves (by colour) after which some five-cell window
# through the stone holds four of its stones and one empty cell, counted
# outside the last PLIES plies of each game (the winning attack is left out),
# and from the fourth stone on (openings are not the engines' moves).
# A four forces the answer and spends the three it came from. Session 33:
# Quinto 18-26% of its moves against Rapfi's 8-9%, in every rule, mostly in
# positions Rapfi already called worse for Quinto (a sign of being pressed
# more than a cause; README, changes tried). The window test ignores
# overlines and renju's forbidden points: a diagnostic, not a rule check.
#
# usage: fours.py RESULTS.tsv... [--size N] [--plies 12]
import argparse
import collections
import csv

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


def makes_four(stones, x, y, colour, size):
    for dx, dy in DIRS:
        for start in range(-4, 1):
            cells = [(x + (start + k) * dx, y + (start + k) * dy) for k in range(5)]
            if any(not (0 <= a < size and 0 <= b < size) for a, b in cells):
                continue
            v = [stones.get(c) for c in cells]
            if v.count(colour) == 4 and v.count(None) == 1:
                return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--size", type=int, default=0, help="board size (default: from the largest coordinate)")
    ap.add_argument("--plies", type=int, default=12, help="plies at each game's end left out")
    a = ap.parse_args()
    count = collections.defaultdict(lambda: [0, 0, 0])  # (engine, colour) -> fours, moves, games
    for path in a.files:
        with open(path) as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        for r in rows:
            players = (r["black"], r["white"])
            moves = [tuple(map(int, m.split(","))) for m in r["moves"].split(";") if m]
            if not moves:
                continue  # a game that ended before its first move
            size = a.size or max(max(m) for m in moves) + 1
            stones = {}
            upto = max(3, len(moves) - a.plies)
            for colour, who in enumerate(players):
                count[(who, colour)][2] += 1
            for i, (x, y) in enumerate(moves[:upto]):
                colour = i % 2
                stones[(x, y)] = colour
                if i < 3:
                    continue
                c = count[(players[colour], colour)]
                c[1] += 1
                c[0] += makes_four(stones, x, y, colour, size)
    print(f"{'engine':16s} {'colour':6s} {'fours':>6s} {'moves':>6s} {'share':>6s} {'a game':>7s}")
    for (who, colour), (f, n, g) in sorted(count.items()):
        share = 100.0 * f / n if n else 0.0
        print(f"{who:16s} {'black' if colour == 0 else 'white':6s} {f:6d} {n:6d} {share:5.1f}% {f / g:7.2f}")


if __name__ == "__main__":
    main()
