#!/bin/sh
# The shipped data is reproducible: data/make.sh, run from this build, makes the same bytes (the
# two Connect-4 files by shortened runs of the same commands).
. "$(dirname "$0")/lib.sh"
BUILD=$1
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}
expect 0 env JUDGE_N=20 NT_EPISODES=3000 NT_PERFECT_GAMES=2 AZ_ITERATIONS=2 NE_TRAIN_N=20 NE_GENERATIONS=2 BOOK_DEPTH=4 sh "$SRC/data/make.sh" "$BUILD" "$T"
for f in tictactoe.oxt q.oxm td.oxm; do
    expect 0 cmp "$T/$f" "$SRC/data/$f"
done
# And the shipped models play perfectly by lookup: never lose, as X or as O, against the table.
for m in q td; do
    expect 0 "$BUILD/oxo-play" --model "$SRC/data/$m.oxm" --self-play --versus "$SRC/data/tictactoe.oxt" --games 200 --seed 1
    has out "200 games: X won 0, drawn 200, O won 0"
    expect 0 "$BUILD/oxo-play" --table "$SRC/data/tictactoe.oxt" --self-play --versus "$SRC/data/$m.oxm" --games 200 --seed 2
    has out "200 games: X won 0, drawn 200, O won 0"
    expect 0 "$BUILD/oxo-play" --info "$SRC/data/$m.oxm" --json
    has out '"accuracy":1.000000,"accuracy_distance":1.000000,"exhaustive_losses_as_x":0,"exhaustive_losses_as_o":0'
done
# The judged set: positions are kept in the order drawn, so 20 of them are the shipped set's first 20.
grep -v '^#' "$T/connect4-7-6.judge" >"$T/short"
grep -v '^#' "$SRC/data/connect4-7-6.judge" | head -21 >"$T/shipped"
ok "the first 20 positions of the shipped judged set are not those data/make.sh draws" cmp -s "$T/short" "$T/shipped"
ok "the shipped judged set does not hold 1,000 positions" test "$(grep -c '^[1-9]' "$SRC/data/connect4-7-6.judge")" = 1000
# The plain learner's models, seed 1 and the two that join it in the shipped ensemble (seeds 2 and
# 3): the same command made each (the same game, tuples (each network's cells, as --info lists
# them: the walks drawn from the seed), workers and seed, a weight set a player, exploring
# starts in the opening, each set learning toward its own player's next afterstate), each keeps
# the value in 88% or more of the judged set (88.6%; 90.5% learning toward the opponent's
# afterstate, 84.4% without the exploring starts), and the first's grade holds 45 or fewer games
# lost as X against the perfect player (151 won, 6 drawn, 43 lost of 200; toward the opponent's
# afterstate 141, 38 and 21; 132 lost with one weight set for both). The fourth, seed 1 with the
# defaults (--tuple-lines 1 --defend --average 0.3 --replay 2000 --tuples 140), the strongest
# single network of train/RECORD.md, likewise.
# same_settings FILE FILTER WHAT: the shortened run's FILE and the shipped one hold the same
# settings (jq FILTER over --info --json); the shipped one's --info is left in $T/out.
same_settings() {
    expect 0 "$BUILD/oxo-play" --info "$T/$1" --json
    jq -c "$2" "$T/out" >"$T/short-info"
    expect 0 "$BUILD/oxo-play" --info "$SRC/data/$1" --json
    jq -c "$2" "$T/out" >"$T/shipped-info"
    ok "the shipped $3 was not made by data/make.sh's command" cmp -s "$T/short-info" "$T/shipped-info"
}
for f in connect4-7-6-ntuple-plain connect4-7-6-ntuple-plain-2 connect4-7-6-ntuple-plain-3 connect4-7-6-ntuple; do
    case $f in *-2) s=2 ;; *-3) s=3 ;; *) s=1 ;; esac
    same_settings "$f.oxm" '{game, algo, ntuple, exploring_starts, workers, sync, replay_capacity, replay_ratio, seed}' \
        "n-tuple model of seed $s"
    ok "the shipped n-tuple model of seed $s keeps the value in $(jq .accuracy "$T/out") (0.88 or more)" \
        jq -e ".accuracy >= 0.88 and .episodes == 1000000 and .seed == $s" "$T/out"
    case $f in
    connect4-7-6-ntuple) ok "the shipped network of the defaults did not defend, average over the last 30% of its run, replay its games and hold 140 tuples" \
        jq -e '.ntuple.defend and .average == {"from": 700000, "every": 10000, "count": 0} and .replay_capacity == 2000 and .replay_ratio == 1 and .ntuple.count == 140' "$T/out" ;;
    connect4-7-6-ntuple-plain) cp "$T/out" "$T/first-info" ;;
    esac
done
ok "the shipped plain n-tuple model lost $(jq .exhaustive_losses_as_x "$T/first-info") of its 200 games as X against the perfect player (45 or fewer)" \
    jq -e '.exhaustive_losses_as_x <= 45' "$T/first-info"
# AlphaZero-lite's network: data/make.sh's command made it (the settings and seed of the shortened
# run's), through all its 5,000 iterations, stripped for shipping (no window), and its bare policy
# keeps the value in AZ_KEPT or more of the judged set (train/RECORD.md, session 44).
AZ_KEPT=0.70
same_settings connect4-7-6-azero.oxm '{game, algo, alpha, seed, workers, azero: (.azero | del(.positions, .adam_steps))}' \
    "AlphaZero-lite network"
ok "the shipped AlphaZero-lite network keeps the value in $(jq .accuracy "$T/out") ($AZ_KEPT or more), or is not the whole run's, stripped" \
    jq -e ".accuracy >= $AZ_KEPT and .episodes == 5000 and .azero.positions == 0 and .parent != null" "$T/out"
# NEAT's network: data/make.sh's command made it (the settings and seed of the shortened run's,
# with a training set of 4,096 positions, not the shortened 20), through its 300 generations,
# and its champion keeps the value in NE_KEPT or more of the judged set (88.2%, train/RECORD.md,
# session 54; the random player keeps 32.9%, the cells' network shipped before 46.0%).
NE_KEPT=0.85
same_settings connect4-7-6-neat.oxm '{game, algo, seed, workers, neat: (.neat | {population, target_species, panel_games, activation, inputs})}' \
    "NEAT network"
ok "the shipped NEAT network keeps the value in $(jq .accuracy "$T/out") ($NE_KEPT or more), did not learn from 4,096 positions or 300 generations" \
    jq -e ".accuracy >= $NE_KEPT and .episodes == 300 and .neat.positions == 4096" "$T/out"
# The opening book of 6x5: it opens (every entry checked against its children, see FORMAT.md);
# the first moves' scores are those of the shortened book made by the same command (both are
# exact); at its depth its entries are the solver's.
for p in "" 3 34 343; do
    expect 0 "$BUILD/oxo-play" --game connect4:6,5 --book "$T/connect4-6-5-book.oxt" --position "$p" --json
    mv "$T/out" "$T/short-$p"
    expect 0 "$BUILD/oxo-play" --game connect4:6,5 --book "$SRC/data/connect4-6-5-book.oxt" --position "$p" --json
    ok "the shipped book and the shortened one differ at '$p'" cmp -s "$T/out" "$T/short-$p"
    has out '"exact":true'
done
for p in 12345654321 65432112345 13524613524 16253416253 45362145362; do
    expect 0 "$BUILD/oxo-play" --game connect4:6,5 --agent solver --book "$SRC/data/connect4-6-5-book.oxt" --position "$p" --json
    jq -c .scores "$T/out" >"$T/book-scores"
    expect 0 "$BUILD/oxo-gen" --game connect4:6,5 --search solve --no-book --position "$p" --json
    jq -c .scores "$T/out" >"$T/solver-scores"
    ok "at $p the shipped book's scores are not the solver's" cmp -s "$T/book-scores" "$T/solver-scores"
done
# The opening book of 7x6 (to 8 stones; `make book` builds it in hours here, so data/make.sh does not):
# its root holds the published first-move scores, and at 7 stones its leaves are the solver's.
B76="$SRC/data/connect4-7-6-book.oxt"
expect 0 "$BUILD/oxo-play" --info "$B76"
has out "an opening book: every position with up to 8 stones"
expect 0 "$BUILD/oxo-play" --game connect4 --book "$B76" --position "" --json
ok "the 7x6 book's first moves are not scored -2 -1 0 1 0 -1 -2" jq -e '.exact and .scores == [-2,-1,0,1,0,-1,-2]' "$T/out"
for p in 4444333 3333444 4422664; do
    expect 0 "$BUILD/oxo-play" --game connect4 --agent solver --book "$B76" --position "$p" --json
    jq -c .scores "$T/out" >"$T/book-scores"
    expect 0 "$BUILD/oxo-gen" --game connect4 --search solve --no-book --position "$p" --json
    jq -c .scores "$T/out" >"$T/solver-scores"
    ok "at $p the 7x6 book's scores are not the solver's" cmp -s "$T/book-scores" "$T/solver-scores"
done
finish
