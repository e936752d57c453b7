#!/bin/sh
# make study as a user runs it, small: train/study.sh --quick on connect4:5,4 with 2 seeds of 3 s
# a family: every family trained on each seed, the best of each exported to C and built, every
# agent in the table with its Elo, value kept and games against the perfect player, and a second
# run taking up the finished trainings instead of redoing them.
# Arguments: the build folder, the source folder.
. "$(dirname "$0")/lib.sh"
BUILD=$1
SRC=$2
S="$T/study"

expect 0 sh "$SRC/train/study.sh" --quick --budget 3 --seeds 2 --game connect4:5,4 --out "$S" "$BUILD"
cp "$T/out" "$T/table"
for f in ntuple-1 ntuple-2 neat-1 neat-2 azero-1 azero-2; do
    ok "$f trained, its summary kept" sh -c "jq -e '.model and (.accuracy >= 0)' '$S/$f.json' >/dev/null"
done
for fam in ntuple neat azero; do
    ok "the best $fam network is a copy of one of its seeds" sh -c "cmp -s '$S/$fam-best.oxm' '$S/$fam-1.oxm' || cmp -s '$S/$fam-best.oxm' '$S/$fam-2.oxm'"
    expect 0 cc -std=c11 -Os -Wall -Wextra -Werror -ffreestanding -nostdlib -c "$S/$fam.c" -o "$T/$fam.o"
done
# one row an agent: random, alpha-beta at 2 depths, MCTS at 2 budgets, each family bare and under
# its search (puct, or azero's own), the solver
rows=$(grep '^| [a-z]' "$T/table" | grep -vc '^| agent |')
ok "the table has a row for each of the 12 agents ($rows)" test "$rows" = 12
for a in random alphabeta:2 alphabeta:4 mcts:200 mcts:1000 ntuple ntuple+search neat neat+search azero \
    azero+search solver; do
    ok "the table rates $a" grep -q "^| $a | " "$T/table"
done
# 5x4 is a draw, which the perfect player (the solver with 1 s a move, far more than 5x4 needs)
# never loses: the random player, the anchor, wins no game against it. (The solver agent of the
# table has 20 ms a move: on a loaded machine it may not finish, so its row is not checked.)
ok "the random player is the anchor and never beats the perfect player" \
    grep -q '^| random | 0 (0 to 0) | .* | 0-[0-4]-[0-4] | 0-[0-4]-[0-4] | - |$' "$T/table"
ok "the families' rows say what their training took" grep -q '^| neat | .* | 2 x 3 s (mean [0-9]* episodes) |$' "$T/table"
ok "the heat map is drawn" grep -q '<svg' "$S/matrix.svg"
# again: the trainings are taken up, not redone
touch -d '2000-01-01' "$S"/*-[12].json
expect 0 sh "$SRC/train/study.sh" --quick --budget 3 --seeds 2 --game connect4:5,4 --out "$S" "$BUILD"
ok "a second run keeps the finished trainings" test -z "$(find "$S" -name '*-[12].json' -newer "$S/grade.judge")"
expect 2 sh "$SRC/train/study.sh" --seeds x "$BUILD"
has err "take whole numbers"
finish
