#!/usr/bin/env python3
# Move quality judged by a stronger brain: which moves of a build the judge
# calls mistakes, in positions it finds close. Positions come from a judged
# file of label.py ("GAME\tRESULT\tEV\tMOVES", EV the judge's value for the
# side to move): those with |EV| <= --window and no mate are sampled, one per
# game (or --per-game). Every brain chooses its move in each at --tc ms a move
# (Gomocup BOARD), and the judge searches each position after the move to
# --depth (label.py's judge, its hash cleared first: the same position always
# gets the same value). Winrate = 1 / (1 + exp(-value / --scale)), a mate
# 0 or 1. A position's reference is the best of EV and every brain's move as
# judged after it (so a shallow EV does not count as the brains' loss);
# positions whose reference is a mate against the mover are left out. A move
# loses reference - its winrate. Printed for each brain: the mean loss, the
# moves that lose more than 0.25 ("blunders") and those after which the judge
# finds a mate; for each brain after the first, the mean difference from the
# first over the same positions with its 95% interval (paired).
# It is a diagnostic more than a test: at 600 positions it told 200 ms from
# 1 s of the same build only at the edge of its interval, where 200 games do
# it easily; its use is the blunders themselves (--keep).
#
# usage: movequality.py JUDGED.tsv RULE SIZE --judge BRAIN [--judge-dir DIR]
#            --brain NAME[:TC]=COMMAND [--brain ...] [--tc 500]
#            [--count 400] [--depth 12] [--jobs 2] [--seed 1] [--window 300]
#            [--per-game 1] [--keep OUT.tsv]
# TC: that brain's ms a move instead of --tc. COMMAND may start with
# environment settings (NAME=VALUE words, after "env" or not).
import argparse
import math
import multiprocessing
import os
import random
import re
import shlex
import sys
import tempfile

import label
from gomocup import RULES, Brain


def ask(job):
    """The moves one brain chooses in a share of the positions."""
    cmd, rule, size, tc, memory, positions = job
    argv = shlex.split(cmd)
    env = dict(os.environ)
    if argv and argv[0] == "env":
        argv.pop(0)
    while argv and "=" in argv[0]:
        k, v = argv.pop(0).split("=", 1)
        env[k] = v
    b = Brain(argv, cwd=os.path.dirname(os.path.abspath(argv[0])), env=env, name=cmd)
    b.start(size, (("rule", RULES[rule]), ("max_memory", memory), ("timeout_turn", tc),
                   ("timeout_match", 0), ("time_left", 2147483647)))
    moves = []
    for cells in positions:
        b.board(cells)
        move, _ = b.reply()
        move = move.replace(" ", "")
        if not re.fullmatch(r"\d+,\d+", move) or move in cells:
            sys.exit(f"{cmd}: answered {move!r} to a BOARD of {';'.join(cells)}")
        moves.append(move)
        b.settle()
    b.end()
    return moves


def split(items, jobs):
    """Contiguous shares, one for each job."""
    return [items[w * len(items) // jobs:(w + 1) * len(items) // jobs] for w in range(jobs)]


def winrate(ev, scale):
    if ev is None or ev == "":
        return None
    if "M" in ev:
        return 0.0 if ev.startswith("-") else 1.0
    return 1.0 / (1.0 + math.exp(-int(ev) / scale))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("judged")
    ap.add_argument("rule", choices=sorted(RULES))
    ap.add_argument("size", type=int)
    ap.add_argument("--judge", required=True)
    ap.add_argument("--judge-dir", default=None)
    ap.add_argument("--brain", action="append", required=True, help="NAME=COMMAND")
    ap.add_argument("--tc", type=int, default=500)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--window", type=int, default=300)
    ap.add_argument("--per-game", type=int, default=1, help="positions taken from each game")
    ap.add_argument("--scale", type=float, default=200.0)
    ap.add_argument("--memory", type=int, default=128 * 1024 * 1024)
    ap.add_argument("--keep", default=None, help="write every position, move and value here")
    a = ap.parse_args()
    brains = []
    for b in a.brain:
        if "=" not in b:
            sys.exit(f"--brain {b!r}: NAME=COMMAND")
        name, cmd = b.split("=", 1)
        tc = a.tc
        if ":" in name:
            name, tc = name.split(":", 1)
            tc = int(tc)
        brains.append((name, cmd, tc))

    # close positions, --per-game from each game
    by_game = {}
    with open(a.judged) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 4 or not parts[2] or "M" in parts[2]:
                continue
            if abs(int(parts[2])) <= a.window:
                by_game.setdefault(parts[0], []).append((parts[2], parts[3].split(";")))
    rng = random.Random(a.seed)
    games = sorted(by_game)
    rng.shuffle(games)
    sample = [pos for g in games for pos in rng.sample(by_game[g], min(a.per_game, len(by_game[g])))]
    sample = sample[:a.count]
    if not sample:
        sys.exit("no position within the window")
    cells = [s[1] for s in sample]
    before = [winrate(s[0], a.scale) for s in sample]
    print(f"{len(sample)} positions from {len(by_game)} games, {a.tc} ms a move, judged at depth {a.depth}",
          flush=True)

    chosen = {}
    for name, cmd, tc in brains:
        with multiprocessing.Pool(a.jobs) as pool:
            parts = pool.map(ask, [(cmd, a.rule, a.size, tc, a.memory, s) for s in split(cells, a.jobs)])
        chosen[name] = [m for part in parts for m in part]

    # judge every distinct position after a move once
    after_key = sorted({(i, chosen[n][i]) for n, _, _ in brains for i in range(len(cells))})
    lines = [f"{k}\t0\t{';'.join(cells[i] + [m])}\n" for k, (i, m) in enumerate(after_key)]
    jargs = argparse.Namespace(brain=a.judge, dir=a.judge_dir, size=a.size, rule=a.rule,
                               memory=a.memory, depth=a.depth, clear=True)
    tmp = tempfile.mkdtemp(prefix="movequality-")
    with multiprocessing.Pool(a.jobs) as pool:
        paths = pool.map(label.judge, [(jargs, s, os.path.join(tmp, f"j{w}"), w)
                                       for w, s in enumerate(split(lines, a.jobs))])
    value = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                k, _, ev, _ = line.rstrip("\n").split("\t")
                wr = winrate(ev, a.scale)
                value[after_key[int(k)]] = None if wr is None else 1.0 - wr
    for path in paths:
        os.remove(path)
    os.rmdir(tmp)

    names = [name for name, _, _ in brains]
    reference, loss = [], {name: [] for name in names}
    for i in range(len(cells)):
        after = [value[(i, chosen[name][i])] for name in names]
        known = [v for v in after + [before[i]] if v is not None]
        ref = max(known) if known else None
        reference.append(ref)
        for name, v in zip(names, after):
            loss[name].append(None if v is None or not ref else ref - v)
    if a.keep:
        with open(a.keep, "w") as f:
            for i in range(len(cells)):
                ref = reference[i]
                row = [";".join(cells[i]), "" if ref is None else f"{ref:.3f}"]
                for name, _, _ in brains:
                    v = value[(i, chosen[name][i])]
                    row += [chosen[name][i], "" if v is None else f"{v:.3f}"]
                f.write("\t".join(row) + "\n")
    first = names[0]
    for name in names:
        ls = [x for x in loss[name] if x is not None]
        blunders = sum(1 for x in ls if x > 0.25)
        mates = sum(1 for i in range(len(cells))
                    if loss[name][i] is not None and value[(i, chosen[name][i])] == 0.0)
        print(f"{name:12s} mean loss {sum(ls) / max(1, len(ls)):.4f}  blunders (> 0.25) {blunders}  "
              f"mated {mates}  of {len(ls)}")
        if name == first:
            continue
        d = [loss[name][i] - loss[first][i] for i in range(len(cells))
             if loss[name][i] is not None and loss[first][i] is not None]
        same = sum(1 for i in range(len(cells)) if chosen[name][i] == chosen[first][i])
        mean = sum(d) / len(d)
        var = sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)
        half = 1.96 * math.sqrt(var / len(d))
        print(f"{'':12s} loss - {first}'s: {mean:+.4f} +/- {half:.4f} (95%; {same} of {len(d)} moves the same)")


if __name__ == "__main__":
    main()
