#!/bin/sh
# Regenerates the shipped data from the programs of a build folder: the solved table and the
# default model of each algorithm (plain runs: default settings, seed 1), the Connect-4 7x6 judged
# set and n-tuple models (the defaults' of seed 1, the plain learner's of seeds 1-3), the opening
# book of Connect-4 6x5 (every position up to 12 stones), and AlphaZero-lite's and NEAT's 7x6
# networks. `make data` runs it; tests/e2e_data.sh checks that the committed files are exactly what
# it makes, and, for the Connect-4 files, which take minutes (the judged set about 5 on 2 cores,
# the n-tuple model about half a minute, the book about 1, the AlphaZero-lite network about 45,
# NEAT's about 8 with its training set), runs the same commands shortened through JUDGE_N,
# NT_EPISODES, NT_PERFECT_GAMES, AZ_ITERATIONS (with the 7x6 book in data/, the model is graded in
# games against the perfect player, a solve at every move past the book), NE_TRAIN_N,
# NE_GENERATIONS and BOOK_DEPTH.
#   data/make.sh BUILD_DIR [OUT_DIR]
set -eu
build=$1
out=${2:-$(dirname "$0")}
"$build/oxo-gen" -o "$out/tictactoe.oxt" >/dev/null
"$build/oxo-train" --algo q --table "$out/tictactoe.oxt" --quiet -o "$out/q.oxm" >/dev/null
"$build/oxo-train" --algo td --table "$out/tictactoe.oxt" --quiet -o "$out/td.oxm" >/dev/null
"$build/oxo-gen" --game connect4 --judge-set "${JUDGE_N:-1000}" --quiet -o "$out/connect4-7-6.judge"
# The plain learner (GBG's tuples, random walks from one cell; the second player not defending;
# the last weights kept; rounds of 1000 games; no replay; GBG's 70 tuples: the defaults before
# --tuple-lines 1, --defend, --average 0.5, later 0.3, rounds of 2000, --replay 2000 and 140
# tuples became them): the network most of the figures of train/RECORD.md are of.
# (The defaults' network, below, takes the game's name: oxo-play --game connect4 reads it.)
"$build/oxo-train" --algo ntuple --game connect4 --judge "$out/connect4-7-6.judge" --workers 2 \
    --episodes "${NT_EPISODES:-1000000}" --perfect-games "${NT_PERFECT_GAMES:-200}" --tuple-lines 0 --no-defend \
    --average 0 --sync 1000 --replay 0 --tuples 70 --quiet -o "$out/connect4-7-6-ntuple-plain.oxm" >/dev/null
# Two more networks, the same command with seeds 2 and 3: joined to the first by '+', an ensemble
# (train/RECORD.md, n-tuple networks).
for s in 2 3; do
    "$build/oxo-train" --algo ntuple --game connect4 --judge "$out/connect4-7-6.judge" --workers 2 \
        --episodes "${NT_EPISODES:-1000000}" --perfect-games "${NT_PERFECT_GAMES:-200}" --tuple-lines 0 \
        --no-defend --average 0 --sync 1000 --replay 0 --tuples 70 --seed $s --quiet -o "$out/connect4-7-6-ntuple-plain-$s.oxm" >/dev/null
done
# The strongest single network of train/RECORD.md, the defaults on Connect-4 (spelled out): every tuple's
# walk starting from a whole line of 4, the second player defending when it thinks itself lost,
# the weights averaged over the last 30% of the run, the workers' copies merged every 2000 games,
# each worker replaying one of its last 2000 games after each game it plays, 140 tuples.
# Named after the game, it is the network oxo-play falls back on where the solver runs out of time.
"$build/oxo-train" --algo ntuple --game connect4 --judge "$out/connect4-7-6.judge" --workers 2 \
    --episodes "${NT_EPISODES:-1000000}" --perfect-games "${NT_PERFECT_GAMES:-200}" --tuple-lines 1 --defend \
    --average 0.3 --sync 2000 --replay 2000 --tuples 140 --quiet -o "$out/connect4-7-6-ntuple.oxm" >/dev/null
# AlphaZero-lite's 7x6 network (train/RECORD.md, session 44: 44 minutes of training on this
# 2-core machine): the defaults of then, 5,000 iterations, the learning rate falling from 0.002 to
# 0.0001; shipped stripped of its window and optimiser state (it plays as model:FILE and under
# azero:N:model=FILE). A network of the cells alone, from plain self-play: the defaults since
# session 50 read the lines and the threats and play random moves in half of the self-play games;
# their network keeps the value in more of the judged set, but stripped it is a file eight times
# the size and it wins fewer games from the empty board (train/RECORD.md, session 50), so this
# one stays. Its window was the default of then, 20,000 positions (100,000 since session 52).
"$build/oxo-train" --algo azero --game connect4 --judge "$out/connect4-7-6.judge" -e "${AZ_ITERATIONS:-5000}" \
    --inputs cells --random-moves 0 --window 20000 --perfect-games 0 --alpha 0.002 --alpha-end 0.0001 --alpha-schedule exponential --alpha-length 5000 \
    --quiet -o "$out/connect4-7-6-azero-whole.oxm" >/dev/null
"$build/oxo-train" --strip "$out/connect4-7-6-azero-whole.oxm" -o "$out/connect4-7-6-azero.oxm" >/dev/null
rm -f "$out/connect4-7-6-azero-whole.oxm"
# NEAT's 7x6 network (train/RECORD.md, session 54), the one the web page plays: each move's
# afterstate and tactics, the defaults otherwise (the board in its orientation), 300 generations,
# learning from 4,096 judged positions of seed 2 (NEAT needs them where there is no table; the
# study's training set, train/study.sh, and never the shipped grading set of seed 1), graded on
# the shipped set. The training set is made, used and removed.
"$build/oxo-gen" --game connect4 --judge-set "${NE_TRAIN_N:-4096}" --seed 2 --quiet -o "$out/connect4-7-6-neat-train.judge"
"$build/oxo-train" --algo neat --game connect4 --train-set "$out/connect4-7-6-neat-train.judge" \
    --judge "$out/connect4-7-6.judge" -e "${NE_GENERATIONS:-300}" --perfect-games 0 --inputs afterstate --quiet \
    -o "$out/connect4-7-6-neat.oxm" >/dev/null
rm -f "$out/connect4-7-6-neat-train.judge"
"$build/oxo-gen" --game connect4:6,5 --book "${BOOK_DEPTH:-12}" --quiet -o "$out/connect4-6-5-book.oxt" >/dev/null
echo "wrote $out/tictactoe.oxt $out/q.oxm $out/td.oxm $out/connect4-7-6.judge $out/connect4-7-6-ntuple-plain.oxm" \
    "$out/connect4-7-6-ntuple-plain-2.oxm $out/connect4-7-6-ntuple-plain-3.oxm $out/connect4-7-6-ntuple.oxm" \
    "$out/connect4-7-6-azero.oxm $out/connect4-7-6-neat.oxm $out/connect4-6-5-book.oxt"
