#!/bin/sh
# Training games for `pbrain-quinto tune`: fast self-play from random openings.
#   tournaments/scripts/gen-data.sh OUTDIR RULE SIZE GAMES NODES [SEED]
# writes OUTDIR/openings-SEED.txt (random openings: 2 to 6 stones in the
# central 7x7, black first) and OUTDIR/games-RULE-SIZE-NODES-SEED.tsv (a
# quinto-manager -results file: every game's moves and result). NODES is the
# search's node budget a move (INFO max_node; 16 MiB of hash, cleared each
# game; 100 ms a move caps the root threat solvers), so the data barely depends on
# the machine's speed; the brain's randomisation (INFO random 1, asked for
# here: renju's default is 0) varies the games further. Run from the
# repository after `make`; QUINTO_BIN=DIR takes pbrain-quinto and
# quinto-manager from DIR instead (a fixed copy, so that rebuilding during a
# long run does not change the data's engine).
# OPPONENT="cmd=/abs/brain [dir=D] [option.KEY=VALUE ...]" plays B instead of
# Quinto (another brain's games are data like any other; Rapfi with
# option.max_depth=8, say), and the results file is named games-RULE-SIZE-
# NODES-SEED-vs.tsv. ENGINE_A="cmd=... [option.KEY=VALUE ...]" plays A instead
# of Quinto too (another brain against itself: Rapfi at depth 9 against depth
# 10, say; NODES then only names the file, which ends in -ext.tsv), and
# TC=MS/MS sets the time control (default 100/0; such a brain needs more).
set -e
out=$1 rule=$2 size=$3 games=$4 nodes=$5 seed=${6:-1}
[ -n "$nodes" ] || { echo "usage: $0 OUTDIR RULE SIZE GAMES NODES [SEED]" >&2; exit 2; }
mkdir -p "$out"
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${QUINTO_BIN:-$top}
ops="$out/openings-$rule-$size-$seed.txt"
awk -v n="$games" -v size="$size" -v seed="$seed" -v rule="$rule" 'BEGIN {
    srand(seed); c = int(size / 2)
    for (g = 0; g < n / 2 + 1; g++) {
        k = 2 + int(rand() * 5); line = rule " " size; delete used
        for (i = 0; i < k; i++) {
            do { x = c - 3 + int(rand() * 7); y = c - 3 + int(rand() * 7) } while ((x "," y) in used)
            used[x "," y] = 1; line = line " " x "," y
        }
        print line " | opening # random, seed " seed
    }
}' > "$ops"
# A searches NODES a move, B half as many again: with one engine the colour-
# swapped replay of an opening would be the same game
name=games-$rule-$size-$nodes-$seed
# shellcheck disable=SC2086 # the engines' words are meant to split
if [ -n "$OPPONENT" ]; then
    name=$name-vs
    set -- -engine $OPPONENT name=B
else
    set -- -engine cmd="$bin/pbrain-quinto" name=B option.max_node=$((nodes * 3 / 2)) option.hash_size=16384 option.random=1
fi
# shellcheck disable=SC2086
if [ -n "$ENGINE_A" ]; then
    [ -n "$OPPONENT" ] || { echo "$0: ENGINE_A needs OPPONENT" >&2; exit 2; }
    name=${name%-vs}-ext
    set -- -engine $ENGINE_A name=A "$@"
else
    set -- -engine cmd="$bin/pbrain-quinto" name=A option.max_node="$nodes" option.hash_size=16384 option.random=1 "$@"
fi
"$bin/quinto-manager" match "$@" -rule "$rule" -size "$size" -tc "${TC:-100/0}" -openings "$ops" \
    -games "$games" -concurrency 2 -reuse -seed "$seed" \
    -results "$out/$name.tsv" > "$out/$name.log"
tail -n 3 "$out/$name.log"
