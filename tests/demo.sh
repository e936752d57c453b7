#!/bin/sh
# make demo: generate the table, show its figures, play the player against itself, train a model
# of each kind, grade it, and play it against the table.
set -e
B=${1:-build}
step() { printf '\n== %s\n' "$*"; }
step "oxo-gen: enumerate the tic-tac-toe tree, solve every position, write the table"
"$B/oxo-gen" -o "$B/tictactoe.oxt"
step "oxo-play: the lookup-only player against itself (seed 1)"
"$B/oxo-play" --table "$B/tictactoe.oxt" --self-play --seed 1
step "oxo-train --algo q: Q-learning by self-play, graded every 1,000 episodes"
"$B/oxo-train" --algo q --table "$B/tictactoe.oxt" --eval-every 1000 -o "$B/q.oxm"
step "oxo-train --algo td: TD(lambda) by self-play"
"$B/oxo-train" --algo td --table "$B/tictactoe.oxt" --eval-every 1000 -o "$B/td.oxm"
step "the models against the table, 100 games on each side"
for m in q td; do
    printf '%s as X: ' "$m"; "$B/oxo-play" --model "$B/$m.oxm" --self-play --versus "$B/tictactoe.oxt" --games 100 --seed 1
    printf '%s as O: ' "$m"; "$B/oxo-play" --table "$B/tictactoe.oxt" --self-play --versus "$B/$m.oxm" --games 100 --seed 1
done
step "one game: the Q model (X) against the table (O)"
"$B/oxo-play" --model "$B/q.oxm" --self-play --versus "$B/tictactoe.oxt" --seed 7
printf '\nNext: play yourself with  %s/oxo-play --hints  (or --level 5 for a weaker opponent)\n' "$B"
