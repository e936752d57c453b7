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
step "bigger games, chosen at run time: 4x4 four in a row (9.7 M positions) and Connect-4 on 5x4, on every core"
"$B/oxo-gen" --game mnk:4,4,4 -o "$B/mnk-4-4-4.oxt"
"$B/oxo-gen" --game connect4:5,4 -o "$B/connect4-5-4.oxt"
step "the Connect-4 table answers a position (columns played: 3 3 2), and plays itself"
"$B/oxo-play" --table "$B/connect4-5-4.oxt" --position 332
"$B/oxo-play" --table "$B/connect4-5-4.oxt" --self-play --seed 1 | tail -8
step "an opening book: Connect-4 6x5 to 4 stones on every core, then the shipped book (to 12 stones) answering at once"
"$B/oxo-gen" --game connect4:6,5 --book 4 -o "$B/connect4-6-5-book4.oxt"
"$B/oxo-play" --game connect4:6,5 --position 34 | tail -1
printf '\nNext: play yourself with  %s/oxo-play --hints  (or --level 5 for a weaker opponent),\n' "$B"
printf 'or Connect-4:  %s/oxo-play --table %s/connect4-5-4.oxt --hints\n' "$B" "$B"
