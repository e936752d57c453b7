#!/bin/sh
# oxo-train as a user runs it: the JSON summary, resume and determinism through the files, the
# curve, the sweep, playing with the models, and bad arguments.
. "$(dirname "$0")/lib.sh"
TRAIN=$1
PLAY=$2
GEN=${3:-$(dirname "$TRAIN")/oxo-gen}
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}

expect 0 "$TRAIN" --algo q --episodes 10000 --eval-every 500 --curve "$T/q.csv" --json -o "$T/q.oxm"
has out '"algo":"q","episodes":10000,"workers":1,"seed":1,"accuracy":1.000000,"accuracy_distance":1.000000,"exhaustive_losses_as_x":0,"exhaustive_losses_as_o":0'
has out '"episodes_to_perfect":'
has out "\"model\":\"$T/q.oxm\",\"model_hash\":\""
empty err
checks=$((checks + 1)); [ "$(wc -l <"$T/q.csv")" = 21 ] || { echo "FAIL: the curve has $(wc -l <"$T/q.csv") lines, expected 21"; fails=$((fails + 1)); }
cp "$T/q.csv" "$T/curve"
has curve "episode,epsilon,alpha,accuracy,accuracy_distance,exhaustive_losses_as_x,exhaustive_losses_as_o,random_as_x_wins"
has curve "10000,0.500000,1.000000,1.000000,1.000000,0,0,"
has curve ",episodes_per_second,perfect_games,perfect_as_x_wins,perfect_as_x_draws,perfect_as_o_wins,perfect_as_o_draws"

expect 0 "$TRAIN" --algo td --episodes 5000 -o "$T/td.oxm"
has out "accuracy 100.00%"
has out "exhaustive check: 0 games lost as X, 0 as O"

# Play with the models: lookup only, never loses.
expect 0 "$PLAY" --model "$T/q.oxm" --position XX.OO.... --json
has out '"to_move":"X","value":1,"best":[2],"best_labels":[3],"moves":[{"move":2,"label":3,"cell":2,"value":1},'
expect 0 "$PLAY" --model "$T/td.oxm" --self-play --seed 3
has out "result: draw"
expect 0 "$PLAY" --info "$T/td.oxm" --json
has out '"kind":"model","format":"1.4","game":"tictactoe"'
has out '"algo":"td"'
has out '"parent":null}'
expect 0 "$PLAY" --info "$T/q.oxm"
has out "grade: accuracy 100.00%"

# Stripped for shipping: no replay rings, same play, lineage kept, no resume.
expect 0 "$TRAIN" --strip "$T/q.oxm" -o "$T/q-ship.oxm" --json
q_hash=$("$PLAY" --info "$T/q.oxm" --json | sed 's/.*"hash":"\([0-9a-f]*\)".*/\1/')
has out "\"parent\":\"$q_hash\",\"rings_removed\":1,\"window_removed\":0}"
checks=$((checks + 1))
[ "$(wc -c <"$T/q-ship.oxm")" -lt "$(wc -c <"$T/q.oxm")" ] || { echo "FAIL: the stripped model is not smaller"; fails=$((fails + 1)); }
for b in ......... X...O.... XO..X...O; do
    a1=$("$PLAY" --model "$T/q.oxm" -p $b --json); a2=$("$PLAY" --model "$T/q-ship.oxm" -p $b --json)
    checks=$((checks + 1)); [ "$a1" = "$a2" ] || { echo "FAIL: the stripped model plays $b differently"; fails=$((fails + 1)); }
done
expect 1 "$TRAIN" --resume "$T/q-ship.oxm" --episodes 20000 -o "$T/x.oxm"; has err "cannot be resumed exactly"
expect 2 "$TRAIN" --strip "$T/q.oxm";   has err "--strip FILE takes -o OUT"
# Stripping is idempotent: a model without rings is written unchanged, byte for byte, and says so.
expect 0 "$TRAIN" --strip "$T/q-ship.oxm" -o "$T/q-ship2.oxm"; has out "nothing to strip: written unchanged"
checks=$((checks + 1))
cmp -s "$T/q-ship.oxm" "$T/q-ship2.oxm" || { echo "FAIL: stripping twice changed the model"; fails=$((fails + 1)); }
# A td model without replay has nothing to strip: same bytes, not larger, its lineage unchanged.
expect 0 "$TRAIN" --strip "$T/td.oxm" -o "$T/td-ship.oxm" --json; has out '"parent":null,"rings_removed":0,"window_removed":0}'
checks=$((checks + 1))
cmp -s "$T/td.oxm" "$T/td-ship.oxm" || { echo "FAIL: stripping a model without rings changed it"; fails=$((fails + 1)); }
expect 2 "$TRAIN" --strip "$T/q.oxm" -o "$T/q.oxm"; has err "would overwrite the input file"

# Raw positions instead of canonical ones: 5,478 positions (16,167 moves), learned and played the
# same way; without the symmetry it takes longer (63,000 episodes for this seed).
expect 0 "$TRAIN" --algo q --no-symmetry --episodes 80000 --json -o "$T/raw.oxm"
has out '"accuracy":1.000000'
expect 0 "$PLAY" --info "$T/raw.oxm" --json
has out '"symmetric":false,"algo":"q","values":16167'
expect 0 "$PLAY" --model "$T/raw.oxm" --self-play --versus "$SRC/data/tictactoe.oxt" --games 50 --seed 1
has out "50 games: X won 0, drawn 50, O won 0"

# Resume: 2,000 then on to 4,000 gives the bytes of 4,000 in one run (checkpointed at 2,000).
expect 0 "$TRAIN" --workers 2 --episodes 4000 --checkpoint-every 2000 -o "$T/whole.oxm"
expect 0 "$TRAIN" --workers 2 --episodes 2000 -o "$T/half.oxm"
expect 0 "$TRAIN" --resume "$T/half.oxm" --episodes 4000 -o "$T/resumed.oxm"
expect 0 cmp "$T/whole.oxm" "$T/resumed.oxm"
expect 0 "$PLAY" --info "$T/resumed.oxm" --json
has out '"episodes":4000'
half_hash=$("$PLAY" --info "$T/half.oxm" --json | sed 's/.*"hash":"\([0-9a-f]*\)".*/\1/')
has out "\"parent\":\"$half_hash\"}"

# The thread count changes nothing.
OMP_NUM_THREADS=1 "$TRAIN" --algo td --workers 3 --sync 50 --episodes 3000 -o "$T/t1.oxm" >/dev/null
OMP_NUM_THREADS=2 "$TRAIN" --algo td --workers 3 --sync 50 --episodes 3000 -o "$T/t2.oxm" >/dev/null
expect 0 cmp "$T/t1.oxm" "$T/t2.oxm"

# Sweep: one model and one row per combination, ranked.
expect 0 "$TRAIN" --algo td --episodes 3000 --eval-every 500 --sweep alpha=0.5,0.01 --sweep lambda=0,0.9 -o "$T/sw.oxm"
has out "| rank | settings | value kept | distance-optimal | losses X/O |"
has out " exhaustive |"
has out "| 1 |"
has out "| 4 |"
has out "alpha=0.01,lambda=0.9"
checks=$((checks + 1)); [ -f "$T/sw-alpha0.01-lambda0.9.oxm" ] || { echo "FAIL: sweep model missing"; fails=$((fails + 1)); }
expect 0 "$TRAIN" --algo q --episodes 2000 --sweep seed=1,2 --json -o "$T/sj.oxm"
has out '"settings":"seed=1"'

# Plot: drawn with gnuplot when it is there, skipped with a message when not.
expect 0 "$TRAIN" --episodes 2000 --eval-every 500 --curve "$T/p.csv" --plot "$T/p.png" -o "$T/p.oxm"
if command -v gnuplot >/dev/null 2>&1; then
    checks=$((checks + 1)); [ -s "$T/p.png" ] || { echo "FAIL: no plot"; fails=$((fails + 1)); }
else
    has err "plot skipped: gnuplot is not installed"
fi

# Bad usage and failures.
expect 2 "$TRAIN" --algo sarsa;          has err "--algo: 'sarsa', expected q, td, ntuple, neat or azero"
# a learner's own setting is refused by the others (its row names the learner)
expect 2 "$TRAIN" --algo q --simulations 5 -o "$T/x.oxm"; has err "--simulations goes with --algo azero"
expect 2 "$TRAIN" --algo azero --sweep population=3,4 -o "$T/x.oxm"; has err "--population goes with --algo neat"
expect 2 "$TRAIN" --episodes 0;          has err "--episodes: '0'"
expect 2 "$TRAIN" --workers 0;           has err "--workers: '0'"
expect 2 "$TRAIN" --alpha 2;             has err "--alpha: '2' is not a number from"
expect 2 "$TRAIN" --gamma x;             has err "--gamma: 'x'"
expect 2 "$TRAIN" --opponent self=0.5;   has err "shares add up to 0.5, expected 1"
expect 2 "$TRAIN" --opponent bot;        has err "--opponent: agent 'bot': expected"
echo "not a model" >"$T/junk.oxm"
expect 1 "$TRAIN" --opponent model:"$T/junk.oxm"; has err "--opponent: $T/junk.oxm"
expect 2 "$TRAIN" --trace long;          has err "--trace: 'long'"
expect 2 "$TRAIN" --epsilon-schedule cosine; has err "--epsilon-schedule: 'cosine'"
expect 2 "$TRAIN" --epsilon-end 0;       has err "exponential epsilon schedule needs"
expect 2 "$TRAIN" --workers 2 --sync 1000 --eval-every 150; has err "must be multiples of --sync (1000)"
# Without --sync, the rounds of several workers divide the grading interval.
expect 0 "$TRAIN" --workers 2 --eval-every 150 --episodes 300 -o "$T/r.oxm"
expect 0 "$PLAY" --info "$T/r.oxm" && has out "sync 50"
expect 2 "$TRAIN" --resume "$T/q.oxm" --alpha 0.5; has err "--resume continues with the model's own settings"
expect 2 "$TRAIN" --sweep alpha;         has err "--sweep: 'alpha', expected KEY=V1,V2,..."
expect 2 "$TRAIN" --sweep colour=1,2;    has err "unknown key 'colour'"
expect 2 "$TRAIN" extra;                 has err "unexpected argument 'extra'"
expect 1 "$TRAIN" --resume "$T/none.oxm"; has err "cannot open $T/none.oxm"
expect 1 "$TRAIN" --resume "$SRC/data/tictactoe.oxt"; has err "this file is a table, expected a model"
expect 1 "$TRAIN" --resume "$T/q.oxm" --episodes 100 -o "$T/x.oxm"; has err "already has 10000 episodes"
expect 1 "$TRAIN" --table "$SRC/tests/fixtures/bad-checksum.oxt"; has err "checksum mismatch"
expect 1 "$TRAIN" --episodes 100 -o /nonexistent/q.oxm; has err "cannot create a file in /nonexistent"
expect 0 "$TRAIN" --help;                has out "(default: 20000)"
expect 0 "$TRAIN" --version;             has out "oxo-train 0."
# Agents as training opponents (the same specs as oxo-play --agent and oxo-arena): recorded in the
# model, shown by --info, resumed exactly, the same on 1 and 2 threads.
expect 0 "$TRAIN" --opponent self=0.5,mcts:30=0.5 --episodes 3000 --workers 2 -o "$T/ag.oxm" --json
has out '"model_hash":'
expect 0 "$PLAY" --info "$T/ag.oxm" --json && has out '"opponent":{"self":0.5,"random":0,"table":0,"agent":0.5,"agent_spec":"mcts:30"}'
expect 0 "$PLAY" --info "$T/ag.oxm" && has out "table 0 mcts:30 0.5"
OMP_NUM_THREADS=1 "$TRAIN" --opponent self=0.5,mcts:30=0.5 --episodes 3000 --workers 2 -o "$T/ag1.oxm" >/dev/null
checks=$((checks + 1)); cmp -s "$T/ag.oxm" "$T/ag1.oxm" || { echo "FAIL: an agent opponent made the model depend on the thread count"; fails=$((fails + 1)); }
expect 0 "$TRAIN" --opponent self=0.5,mcts:30=0.5 --episodes 2000 --workers 2 -o "$T/ag2.oxm"
expect 0 "$TRAIN" --resume "$T/ag2.oxm" --episodes 3000 -o "$T/ag3.oxm"
h1=$("$PLAY" --info "$T/ag.oxm" | sed -n 's/.*hash \([0-9a-f]*\).*/\1/p' | head -1)
h3=$("$PLAY" --info "$T/ag3.oxm" | sed -n 's/.*hash \([0-9a-f]*\).*/\1/p' | head -1)
checks=$((checks + 1)); [ -n "$h1" ] && [ "$h1" = "$h3" ] || { echo "FAIL: resuming with an agent opponent: $h3, straight: $h1"; fails=$((fails + 1)); }
expect 0 "$TRAIN" --opponent alphabeta:2 --episodes 2000 -o "$T/ab.oxm"
expect 2 "$TRAIN" --opponent alphabeta:0; has err "alphabeta:DEPTH"
expect 2 "$TRAIN" --opponent self=0.4,alphabeta:2=0.3,mcts:5=0.3; has err "two agents"
expect 2 "$TRAIN" --opponent self=0.4,alphabeta:2=0.3; has err "shares add up to 0.7"
# puct: a search led by a weak model (300 episodes of td: it loses most of its games to the perfect
# player) plays perfectly, as either player: its backup has the right sign, and it corrects the
# model where the model is wrong (a sign error, or a search that only followed the model, would
# lose as the model does).
expect 0 "$TRAIN" --algo td --episodes 300 --seed 3 -o "$T/weak.oxm"
expect 0 "$PLAY" --agent model:"$T/weak.oxm" --self-play --versus-agent solver --games 100 --seed 1
lost=$(sed -n 's/.*O won \([0-9]*\)$/\1/p' "$T/out")
ok "the weak model lost ${lost:-?} of 100 as X, not 20 or more: no test of the search" test "${lost:-0}" -ge 20
expect 0 "$PLAY" --agent puct:1000:value="$T/weak.oxm" --self-play --versus-agent solver --games 100 --seed 1
has out "X won 0, drawn 100, O won 0"
expect 0 "$PLAY" --agent solver --self-play --versus-agent puct:1000:value="$T/weak.oxm" --games 100 --seed 1
has out "X won 0, drawn 100, O won 0"
expect 2 "$PLAY" --agent puct:1000 --self-play; has err "puct:ITERATIONS[:C]:value=FILE"
# Graded only at the end, a perfect model is not said to have become perfect "after" its episodes.
expect 0 "$TRAIN" --algo q --episodes 20000 -o "$T/end.oxm"
has out "perfect at the end (20000 episodes; graded only there: --eval-every N tells when)"

# NEAT: a generation an episode; resumed from its file, the same population as straight (the
# files differ only by their parent); its champion plays through the player and the arena.
expect 0 "$TRAIN" --algo neat --population 30 --positions 200 --panel-games 2 -e 4 --json -o "$T/n4.oxm"
has out '"algo":"neat","episodes":4,"workers":1'
expect 0 "$TRAIN" --resume "$T/n4.oxm" -e 8 --json -o "$T/n8r.oxm"
cp "$T/out" "$T/resumed"
expect 0 "$TRAIN" --algo neat --population 30 --positions 200 --panel-games 2 -e 8 --json -o "$T/n8.oxm"
h=$(sed 's/.*"model_hash":"\([0-9a-f]*\)".*/\1/' "$T/out")
has resumed "\"model_hash\":\"$h\""
expect 0 "$PLAY" --info "$T/n8.oxm"
has out "neat: a population of 30"
expect 0 "$PLAY" --model "$T/n8.oxm" --self-play
has out "result:"
expect 1 "$TRAIN" --algo neat -w 2 -e 2 -o "$T/nw.oxm"
has err "algo neat evaluates each generation on every thread"

# NEAT where there is no table (connect4:5,4 here, 7x6 in the study): it learns from judged
# positions (--train-set, oxo-gen --judge-set with another seed) and is graded on the judged set,
# whose positions never train it; --resume needs the same training set, which the model names by
# its hash.
expect 0 "$GEN" --game connect4:5,4 --judge-set 300 --seed 7 -q -o "$T/train.judge"
expect 0 "$GEN" --game connect4:5,4 --judge-set 200 -q -o "$T/grade.judge"
expect 0 "$GEN" --game connect4:5,4 --judge-set 50 --seed 9 -q -o "$T/other.judge"
expect 1 "$TRAIN" --algo neat --game connect4:5,4 -e 2 -o "$T/x.oxm"
has err "or let it learn from judged positions (--train-set FILE"
expect 2 "$TRAIN" --algo q --train-set "$T/train.judge" -o "$T/x.oxm"
has err "--train-set goes with --algo neat"
cat "$T/train.judge" "$T/grade.judge" | grep -v '^game\|^#' >"$T/rows"
{ echo "game connect4:5,4"; cat "$T/rows"; } >"$T/both.judge"
nc=$(grep -c . "$T/rows")
n6=--population
expect 0 "$TRAIN" --algo neat --game connect4:5,4 --train-set "$T/both.judge" --judge "$T/grade.judge" \
    $n6 30 --panel-games 2 -e 3 --json -o "$T/x.oxm"
# the judged set's 200, and any position the two draws share (by another order of moves: the
# files spell a position by the moves that reached it)
has err "of the $nc positions of $T/both.judge are in the judged set that grades the run, and are left out"
out=$(sed -n 's/.*note: \([0-9]*\) of the.*/\1/p' "$T/err")
ok "the judged set's positions left out of the training set ($out)" test "${out:-0}" -ge 200 -a "${out:-0}" -le 210
has out "\"graded_on\":\"200 positions of $T/grade.judge\""
expect 1 "$TRAIN" --algo neat --game connect4:5,4 --train-set "$T/grade.judge" --judge "$T/grade.judge" -o "$T/x.oxm"
has err "no position is left to train on"
ok "nothing written by a refused run" test ! -e "$T/x.oxm" -o "$T/x.oxm" -nt "$T/both.judge"
expect 0 "$TRAIN" --algo neat --game connect4:5,4 --train-set "$T/train.judge" --judge "$T/grade.judge" \
    $n6 30 --panel-games 2 -e 6 --json -o "$T/c6.oxm"
h=$(sed 's/.*"model_hash":"\([0-9a-f]*\)".*/\1/' "$T/out")
expect 0 "$TRAIN" --algo neat --game connect4:5,4 --train-set "$T/train.judge" --judge "$T/grade.judge" \
    $n6 30 --panel-games 2 -e 3 -o "$T/c3.oxm"
expect 0 "$TRAIN" --resume "$T/c3.oxm" --train-set "$T/train.judge" --judge "$T/grade.judge" -e 6 --json -o "$T/c6r.oxm"
has out "\"model_hash\":\"$h\""
expect 1 "$TRAIN" --resume "$T/c3.oxm" --train-set "$T/other.judge" --judge "$T/grade.judge" -e 6 -o "$T/x2.oxm"
has err "resume it with the same --train-set"
expect 0 "$PLAY" --info "$T/c6.oxm"
has out "grade: value kept in"
expect 0 "$PLAY" --game connect4:5,4 --model "$T/c6.oxm" --position 3 --json
has out '"best":['

# AlphaZero-lite: an iteration an episode (self-play games by PUCT, then training); resumed from
# its file, the same network, optimiser and window as straight; its bare policy plays through the
# player, its search as the agent azero; on a board without a table, graded on a judged set.
az="--algo azero --games 8 --simulations 16 --width 16 --window 300"
expect 2 "$TRAIN" $az --inputs pixels -o "$T/bad.oxm" && has err "'pixels', expected cells, lines or threats"
expect 0 "$TRAIN" $az -e 4 --json -o "$T/a4.oxm"
has out '"algo":"azero","episodes":4,"workers":1'
expect 0 "$TRAIN" --resume "$T/a4.oxm" -e 6 --json -o "$T/a6r.oxm"
cp "$T/out" "$T/resumed"
expect 0 env OMP_NUM_THREADS=1 "$TRAIN" $az -e 6 --json -o "$T/a6.oxm"
h=$(sed 's/.*"model_hash":"\([0-9a-f]*\)".*/\1/' "$T/out")
has resumed "\"model_hash\":\"$h\""
expect 0 "$PLAY" --info "$T/a6.oxm"
has out "azero: 174 inputs (the cells, the lines' patterns and the threats), 2 hidden layers of 16, 16 relu units, a policy over 9 moves"
expect 0 "$PLAY" --info "$T/a6.oxm" --json
has out '"azero":{"widths":[16,16],"inputs":174,"lines":true,"threats":true,'
held=$(sed 's/.*"positions":\([0-9]*\).*/\1/' "$T/out")
expect 0 "$PLAY" --model "$T/a6.oxm" --self-play
has out "result:"
expect 0 "$PLAY" --agent "azero:30:model=$T/a6.oxm" --versus-agent random --self-play
has out "result:"
# stripped for shipping: without its window and its optimiser's state, smaller, the same moves and
# scores, and no longer resumed
expect 0 "$TRAIN" --strip "$T/a6.oxm" -o "$T/a6s.oxm" --json
has out "\"parent\":\"$h\",\"rings_removed\":0,\"window_removed\":$held}"
ok "the stripped network is not smaller" test "$(wc -c <"$T/a6s.oxm")" -lt "$(wc -c <"$T/a6.oxm")"
for p in X........ XO..X.... XO.XO....; do
    expect 0 "$PLAY" --model "$T/a6.oxm" --position "$p" --json
    mv "$T/out" "$T/whole"
    expect 0 "$PLAY" --model "$T/a6s.oxm" --position "$p" --json
    ok "the stripped network scores $p otherwise" cmp -s "$T/out" "$T/whole"
done
expect 1 "$TRAIN" --resume "$T/a6s.oxm" -e 8 -o "$T/a8.oxm"
has err "stripped of its window and its optimiser's state (oxo-train --strip): it plays, but cannot be resumed"
expect 2 "$PLAY" --agent "azero:30" --versus-agent random --self-play
has err "azero:SIMULATIONS[:C]:model=FILE"
expect 1 "$PLAY" --agent "azero:30:model=$T/n8.oxm" --versus-agent random --self-play
has err "is a neat file, not an azero model"
expect 1 "$TRAIN" --algo azero -w 2 -e 2 -o "$T/aw.oxm"
has err "algo azero plays its self-play games on every thread"
expect 0 "$TRAIN" $az --game connect4:5,4 --judge "$T/grade.judge" --perfect-games 4 -e 2 --json -o "$T/ac.oxm"
has out "\"graded_on\":\"200 positions of $T/grade.judge\""
expect 0 "$PLAY" --info "$T/ac.oxm"
has out "grade: value kept in"
finish
