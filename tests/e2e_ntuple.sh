#!/bin/sh
# n-tuple networks as a user runs them: oxo-gen --judge-set against the table, oxo-train --algo
# ntuple graded on a table and on the shipped Connect-4 7x6 judged set, the same bytes whatever
# the thread count, resume, playing the model with oxo-play and ranking it in oxo-arena, and bad
# arguments.
. "$(dirname "$0")/lib.sh"
GEN=$1 PLAY=$2 TRAIN=$3 ARENA=$4
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}
jqok() { checks=$((checks + 1)); jq -e "$1" "$T/out" >/dev/null || { echo "FAIL: not so: $1"; head -c 600 "$T/out"; echo; fails=$((fails + 1)); }; }

expect 0 "$GEN" --game connect4:4,4 -o "$T/c44.oxt" -q

# --- The judged set of oxo-gen says what the table says, move by move. --------------------------
expect 0 "$GEN" --game connect4:4,4 --judge-set 60 --min-stones 2 --seed 5 -o "$T/j44.judge"
has j44.judge "game connect4:4,4"
ok "the judged set has $(grep -c '^[1-9]' "$T/j44.judge") positions, not 60" test "$(grep -c '^[1-9]' "$T/j44.judge")" = 60
grep '^[1-9]' "$T/j44.judge" | cut -d' ' -f1 >"$T/boards"
IN=$T/boards expect 0 "$PLAY" --table "$T/c44.oxt" --batch --json
jq -r '[range(0;4) as $c | (.moves | map(select(.move == $c)) | if length == 0 then "." else
        {"win":"+","draw":"=","loss":"-"}[.[0].value] end)] | join("")' "$T/out" >"$T/from-table"
grep '^[1-9]' "$T/j44.judge" | cut -d' ' -f2 >"$T/from-judge"
ok "the solver's judged set and the table disagree" cmp -s "$T/from-table" "$T/from-judge"
# Only positions where the choice matters: some move is worse than another.
ok "a judged position has moves all of one value" sh -c "! grep -Eq '^[^ ]+ [.+]+\$|^[^ ]+ [.=]+\$|^[^ ]+ [.-]+\$' '$T/j44.judge'"
expect 0 "$GEN" --game connect4:4,4 --judge-set 60 --min-stones 2 --seed 5 -o "$T/j44b.judge"
ok "the same seed gave another judged set" cmp -s "$T/j44.judge" "$T/j44b.judge"
# A table oxo-gen has just written in the current folder is found by the next program (the trainer
# asked for --judge-set instead).
mkdir -p "$T/here"
(cd "$T/here" && "$GEN" --game connect4:4,4 >/dev/null && \
    "$TRAIN" --algo ntuple --game connect4:4,4 --tuples 5 --tuple-len 4 --episodes 100 -o x.oxm --json) >"$T/out" 2>"$T/err"
ok "oxo-train found ./connect4-4-4.oxt" grep -q 'valued by the table' "$T/out"
(cd "$T/here" && "$PLAY" --game connect4:4,4 --position 44 --json) >"$T/out" 2>"$T/err"
ok "oxo-play found ./connect4-4-4.oxt" grep -q '"value"' "$T/out"
# A network's grade is said as what it is: the value kept on judged positions, games lost to the
# perfect player (--info and --sweep named them "exhaustive losses" and "distance 0.00%").
(cd "$T/here" && "$PLAY" --info x.oxm) >"$T/out" 2>"$T/err"
ok "--info says what a network's grade is" grep -q "grade: value kept in .* of the judged positions, games lost to the perfect player" "$T/out"
(cd "$T/here" && "$TRAIN" --algo ntuple --game connect4:4,4 --tuples 5 --tuple-len 4 --episodes 100 \
    --sweep seed=1,2 -o sw.oxm) >"$T/out" 2>"$T/err"
ok "--sweep rows of networks say judged set and perfect player" grep -q "| - (judged set) | .* to the perfect player |" "$T/out"
# Where no choice is left (one empty cell) nothing can be judged: refused at once (it ran forever);
# near the end, rare positions still come, within a bound on the random games drawn.
expect 2 "$GEN" --game connect4:5,4 --judge-set 10 --min-stones 19 -o "$T/x.judge"
has err "has at most one move, so no choice to judge (at most 18)"
expect 2 "$GEN" --game connect4 --judge-set 10 --min-stones 41 -o "$T/x.judge"
has err "(at most 40)"
expect 0 timeout 120 "$GEN" --game connect4:5,4 --judge-set 10 --min-stones 18 -o "$T/x.judge"
# With no table nor set, the solver serves the truth: the set drawn as from a table, valued by it;
# a game it does not serve is refused.
expect 0 "$TRAIN" --algo ntuple --game connect4:5,4 --judge solver --episodes 100 --perfect-games 0 -o "$T/js.oxm"
ok "the set is valued by the solver" grep -q "value kept in [0-9.]*% of 2000 positions of 10 or more stones from random play (seed 0x6a75646765) where the moves differ in value, valued by the solver" "$T/out"
expect 2 "$TRAIN" --algo ntuple --game mnk:4,4,3 --judge solver --episodes 100 -o "$T/js.oxm"
has err "--judge solver: the solver does not serve"

# --- Training graded on the table: the value kept rises, and the perfect player is played. --------
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
    --episodes 100 --json -o "$T/short.oxm"
cp "$T/out" "$T/short.json"
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
    --episodes 20000 --eval-every 5000 --curve "$T/nt.csv" --json -o "$T/nt.oxm"
jqok '.algo == "ntuple" and .episodes == 20000'
jqok '.graded_on | test("2000 positions .* valued by the table")'
jqok '.perfect_as_x.wins + .perfect_as_x.draws + .perfect_as_x.losses == 200'
jqok ".accuracy > 0.65 and .accuracy > $(jq .accuracy "$T/short.json") + 0.15"
jqok '.random_as_x.wins > 400 and .moves_per_second > 0'
empty err
# The curve's last row holds the same games against the perfect player as the summary.
jq -r '"20000,\(.perfect_as_x.losses),\(.perfect_as_o.losses),200,\(.perfect_as_x.wins),\(.perfect_as_x.draws),\(.perfect_as_o.wins),\(.perfect_as_o.draws)"' "$T/out" >"$T/want-row"
tail -n 1 "$T/nt.csv" | awk -F, '{print $1 "," $6 "," $7 "," $15 "," $16 "," $17 "," $18 "," $19}' >"$T/got-row"
ok "the curve's last row ($(cat "$T/got-row")) has the summary's games ($(cat "$T/want-row"))" \
    cmp -s "$T/want-row" "$T/got-row"
# Once the averaging has begun (the last 30%: from 14,000 of 20,000, a snapshot every 1,000), a
# point grades the mean of the weights so far, the network the run is building: the same run
# without averaging (the same games: the mean is only read; the speed aside) has the same points at
# 5,000 and 10,000, another at 15,000 (a mean of 2).
ok "the curve's snapshots averaged: $(tail -n +2 "$T/nt.csv" | cut -d, -f20 | tr '\n' ' ')" \
    test "$(tail -n +2 "$T/nt.csv" | cut -d, -f20 | tr '\n' ' ')" = "0 0 2 7 "
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
    --episodes 20000 --eval-every 5000 --average 0 --curve "$T/nt0.csv" -q -o "$T/nt0.oxm"
for k in 5000 10000 15000; do
    grep "^$k," "$T/nt.csv" | cut -d, -f4-13,15-19 >"$T/row-mean"
    grep "^$k," "$T/nt0.csv" | cut -d, -f4-13,15-19 >"$T/row-last"
    if [ $k = 15000 ]; then
        ok "the point at $k graded the weights of the moment, not their mean ($(cat "$T/row-mean"))" \
            sh -c "! cmp -s '$T/row-mean' '$T/row-last'"
    else
        ok "the point at $k differs from the run without averaging: $(cat "$T/row-mean") against $(cat "$T/row-last")" \
            cmp -s "$T/row-mean" "$T/row-last"
    fi
done
# A weight set for each player by default with gravity (twice the weights of one shared set); the
# file holds only the fillings of the tuples' cells a board can have, far fewer than 4^6 a tuple.
# With gravity the second player defends by default, and every n-tuple run averages the weights
# of its last 30% (every hundredth, in whole rounds of 1,000 episodes: from 14,000 of 20,000).
expect 0 "$PLAY" --info "$T/nt.oxm" --json
jqok '.ntuple.sets == 2 and .format == "1.6" and .values < 2 * 40 * 4096 / 2'
jqok '.ntuple.defend == true and .average == {"from": 14000, "every": 1000, "count": 0}'
two=$(jq .values "$T/out")
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
    --episodes 100 --weight-sets 1 -q -o "$T/one.oxm"
expect 0 "$PLAY" --info "$T/one.oxm" --json
jqok ".ntuple.sets == 1 and .values * 2 == $two"
# Several workers merge their copies every 2,000 games unless --sync says otherwise (half the
# merges of rounds of 1,000, the default before: train/RECORD.md, n-tuple networks), or every hundredth of a
# shorter run (where --average takes its snapshots), in rounds that divide the grading interval;
# one worker keeps rounds of 1,000, where they change nothing. A short run on several workers
# averages its last 30% (31 snapshots, the last at its end) as a long one does.
while read -r game episodes workers every rounds averaged; do
    case $game in connect4*) table="--table=$T/c44.oxt" ;; *) table= ;; esac
    expect 0 "$TRAIN" --algo ntuple --game "$game" $table --tuples 12 --tuple-len 3 \
        --episodes "$episodes" --workers "$workers" --eval-every "$every" --perfect-games 0 --json -o "$T/rounds.oxm"
    jqok ".averaged == $averaged"
    expect 0 "$PLAY" --info "$T/rounds.oxm" --json
    ok "$workers workers (--episodes $episodes --eval-every $every) made rounds of $(jq .sync "$T/out") games, not $rounds" \
        jq -e ".sync == $rounds" "$T/out"
done <<EOF
connect4:4,4 6000 2 0 60 31
connect4:4,4 6000 2 1000 20 31
connect4:4,4 6000 1 0 1000 2
mnk:3,3,3 400000 2 0 2000 31
EOF
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --workers 2 --sync 2000 --eval-every 3000 -o "$T/r.oxm"
has err "must be multiples of --sync (2000)"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --weight-sets 3 -o "$T/three.oxm"
has err "--weight-sets"
expect 2 "$TRAIN" --algo td --weight-sets 2 -o "$T/td.oxm"
has err "go with --algo ntuple"
# The bound of 2^24 weights is on those the network holds: tuples of 12 cells on 4x4 (three
# columns) hold a fraction of their 4^12 fillings; 1,024 of them hold too many.
# The default averaging keeps the mean so far beside the weights in a checkpoint, so such a network
# is refused with it, named, and taken without it.
expect 1 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 70 --tuple-len 12 \
    --episodes 100 -q -o "$T/long.oxm"
has err "the values and their mean so far" && has err "or --average 0"
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 70 --tuple-len 12 \
    --episodes 100 --average 0 -q -o "$T/long.oxm"
expect 0 "$PLAY" --info "$T/long.oxm" --json
jqok '.ntuple.len == 12 and .values < 16777216'
expect 1 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 1024 --tuple-len 12 \
    -o "$T/huge.oxm"
has err "more than the 16777216 allowed"
ok "a refused network left no file" test ! -e "$T/huge.oxm"
# Exploring starts in the opening by default with gravity (30% of the games, after fewer than 12
# random moves), none on m,n,k boards; both can be set, and the depth goes with ntuple only.
expect 0 "$PLAY" --info "$T/nt.oxm" --json
jqok '.exploring_starts == 0.3 and .ntuple.exploring_depth == 12'
expect 0 "$PLAY" --info "$T/one.oxm"
has out "exploring starts 0.3, sync"
has out "exploring starts within 12 moves"
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
    --episodes 100 --exploring-starts 0 --exploring-depth 5 -q -o "$T/nostart.oxm"
expect 0 "$PLAY" --info "$T/nostart.oxm" --json
jqok '.exploring_starts == 0 and .ntuple.exploring_depth == 5'
expect 0 "$TRAIN" --algo ntuple --game mnk:3,3,3 --tuples 8 --tuple-len 3 --episodes 100 -q -o "$T/mnk.oxm"
expect 0 "$PLAY" --info "$T/mnk.oxm" --json
jqok '.exploring_starts == 0 and .ntuple.exploring_depth == 0'
# Each player's weights learn from its own next afterstate with gravity, from the opponent's on
# m,n,k boards; either can be asked for, and the choice changes what is learned.
jqok '.ntuple.target == "next"'
expect 0 "$PLAY" --info "$T/nostart.oxm" --json
jqok '.ntuple.target == "own"'
expect 0 "$PLAY" --info "$T/nostart.oxm"
has out "learned toward the same player's next afterstate"
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
    --episodes 100 --exploring-starts 0 --exploring-depth 5 --td-target next -q -o "$T/nexttarget.oxm"
expect 0 "$PLAY" --info "$T/nexttarget.oxm" --json
jqok '.ntuple.target == "next"'
ok "--td-target next learned the same weights as own" bash -c "! cmp -s '$T/nexttarget.oxm' '$T/nostart.oxm'"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --td-target mine -o "$T/bad.oxm"
has err "--td-target: 'mine', expected next or own"
expect 2 "$TRAIN" --algo td --td-target own -o "$T/bad.oxm"
has err "--td-target, --average, --defend and --no-defend go with --algo ntuple"
# --tuple-lines: the share of the random walks that start from a whole line (test_ntuple checks
# the tuples); 0 is GBG's walks, a different network; a sweep's runs are those of their options.
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
    --episodes 100 --exploring-starts 0 --exploring-depth 5 --tuple-lines 0 -q -o "$T/cellwalks.oxm"
ok "--tuple-lines 0 drew the same tuples as the default" bash -c "! cmp -s '$T/cellwalks.oxm' '$T/nostart.oxm'"
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
    --episodes 100 --exploring-starts 0 --exploring-depth 5 --tuple-lines 1 -q -o "$T/linewalks.oxm"
ok "--tuple-lines 1 is not the default" cmp -s "$T/linewalks.oxm" "$T/nostart.oxm"
if outcomes; then # the same bytes as single runs: checked once, in the normal build
    expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 40 --tuple-len 6 \
        --episodes 100 --exploring-starts 0 --exploring-depth 5 --sweep tuple-lines=0,1 -q -o "$T/swl.oxm"
    ok "the sweep's tuple-lines=0 is not the run of its option" cmp -s "$T/swl-tuple-lines0.oxm" "$T/cellwalks.oxm"
    ok "the sweep's tuple-lines=1 is not the run of its option" cmp -s "$T/swl-tuple-lines1.oxm" "$T/linewalks.oxm"
fi
# --info --json lists the tuples: the first walk starts from a line across (4 cells side by side in
# one row), the second from one down (a column); read back by --tuple-file, they train the same network.
expect 0 "$PLAY" --info "$T/nostart.oxm" --json
jqok '.ntuple.tuples | length == 40 and all(length == 6)'
jqok '.ntuple.tuples[0][0:4] | .[1] - .[0] == 1 and .[2] - .[1] == 1 and .[3] - .[2] == 1 and (.[0] / 4 | floor) == (.[3] / 4 | floor)'
jqok '.ntuple.tuples[1][0:4] | .[1] - .[0] == 4 and .[2] - .[1] == 4 and .[3] - .[2] == 4'
jq -r '.ntuple.tuples[] | map(tostring) | join(" ")' "$T/out" >"$T/drawn.tuples"
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuple-file "$T/drawn.tuples" \
    --episodes 100 --exploring-starts 0 --exploring-depth 5 -q -o "$T/fromfile.oxm"
ok "the tuples --info lists, read back by --tuple-file, trained another network" cmp -s "$T/fromfile.oxm" "$T/nostart.oxm"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --tuple-lines 1.5 -o "$T/bad.oxm"
has err "--tuple-lines"
expect 2 "$TRAIN" --algo q --tuple-lines 0.5 -o "$T/bad.oxm"
has err "--tuple-lines, --horizon"
has err "go with --algo ntuple"
printf '0 1 2 3\n4 5 6 7\n' > "$T/lines.tuples"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --tuple-file "$T/lines.tuples" --tuple-lines 0 -o "$T/bad.oxm"
has err "--tuple-lines go without it"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuple-file "$T/lines.tuples" \
    --sweep tuple-lines=0,1 -o "$T/bad.oxm"
has err "tuple-lines goes without --tuple-file"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --exploring-depth 65 -o "$T/deep.oxm"
has err "--exploring-depth"
expect 2 "$TRAIN" --algo q --exploring-depth 3 -o "$T/q.oxm"
has err "go with --algo ntuple"

# Weight averaging: the saved network is the mean of the weights every hundredth of the run (in whole
# rounds of 1,000 episodes here) over its last half: at 2,000, 3,000 and 4,000 episodes.
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 4000 \
    --average 0.5 --no-defend --json -o "$T/avg.oxm"
jqok '.averaged == 3'
avg_hash=$(jq -r .model_hash "$T/out")
expect 0 "$PLAY" --info "$T/avg.oxm"
has out "format 1.5" && has out "the mean of those every 1000 episodes from episode 2000 (--average)"
expect 0 "$PLAY" --info "$T/avg.oxm" --json
jqok '.average == {"from": 2000, "every": 1000, "count": 0}'
# A run that ends before its averaging begins (from 1,050 rounded up to 2,000, past 1,500) keeps
# its last weights, and says so rather than calling them a mean.
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 1500 \
    --average 0.3 --no-defend --json -o "$T/avg-none.oxm"
jqok 'has("averaged") and .averaged == 0'
expect 0 "$PLAY" --info "$T/avg-none.oxm"
has out "weights as at episode 1500; averaged every 1000 episodes from episode 2000 on (--average)"
ok "a run that took no mean called its weights one" sh -c "! grep -q 'the mean of those' '$T/out'"
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 4000 \
    --average 0 --no-defend --json -o "$T/noavg.oxm"
plain_hash=$(jq -r .model_hash "$T/out")
ok "averaging changed nothing" test "$plain_hash" != "$avg_hash"
jqok 'has("averaged") | not'
expect 0 "$PLAY" --info "$T/noavg.oxm"
has out "format 1.4"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --average 1.5 -o "$T/bad.oxm"
has err "--average"
expect 2 "$TRAIN" --algo td --average 0.5 -o "$T/bad.oxm"
has err "--average, --defend and --no-defend go with --algo ntuple"
expect 2 "$TRAIN" --resume "$T/avg.oxm" --average 0.2 -o "$T/bad.oxm"
has err "continues with the model's own settings"

# --defend: self-play's second player resists when it thinks itself lost; the file says so (model
# format 1.6, the key only where it is set), and a resumed run keeps it without being told.
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 4000 \
    --defend --average 0 --json -o "$T/def.oxm"
def_hash=$(jq -r .model_hash "$T/out")
ok "defending changed nothing" test "$def_hash" != "$plain_hash"
expect 0 "$PLAY" --info "$T/def.oxm"
has out "format 1.6" && has out "(--defend)"
expect 0 "$PLAY" --info "$T/def.oxm" --json
jqok '.ntuple.defend == true'
expect 0 "$PLAY" --info "$T/noavg.oxm" --json
jqok '.ntuple.defend == false'
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 2000 \
    --defend --average 0 --alpha-length 4000 --epsilon-length 4000 -q -o "$T/def-half.oxm"
expect 0 "$TRAIN" --resume "$T/def-half.oxm" --episodes 4000 --table "$T/c44.oxt" --json -o "$T/def-resumed.oxm"
ok "a resumed run did not defend as the straight one did" \
    test "$(jq -r .model_hash "$T/out")" = "$def_hash"
expect 2 "$TRAIN" --algo q --defend -o "$T/bad.oxm"
has err "--defend and --no-defend go with --algo ntuple"
expect 2 "$TRAIN" --resume "$T/def.oxm" --defend -o "$T/bad.oxm"
has err "continues with the model's own settings"
# A sweep over both: each run is the one its options make (the same bytes; in the normal build).
if outcomes; then
    expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 4000 \
        --sweep defend=0,1 --sweep average=0,0.5 --json -o "$T/sw.oxm"
    jqok 'length == 4'
    for f in defend0-average0:noavg defend0-average0.5:avg defend1-average0:def; do
        ok "the sweep's ${f%%:*} is not the run of its options" cmp -s "$T/sw-${f%%:*}.oxm" "$T/${f#*:}.oxm"
    done
    expect 0 "$PLAY" --info "$T/sw-defend1-average0.5.oxm" --json
    jqok '.ntuple.defend == true and .average.from == 2000'
fi
# The defaults are the defence and the last 30% averaged with gravity (from episode 2,800, rounded up
# to the round's end at 3,000), on m,n,k boards the averaging without the defence.
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 4000 \
    --defend --average 0.3 --json -o "$T/def-avg.oxm"
jqok '.averaged == 2'
expect 0 "$PLAY" --info "$T/def-avg.oxm" --json
jqok '.ntuple.defend == true and .average.from == 3000'
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 4000 \
    -q -o "$T/dflt.oxm"
ok "the defaults with gravity are not --defend --average 0.3" cmp -s "$T/dflt.oxm" "$T/def-avg.oxm"
ok "--average 0.3 saved what 0.5 does" test "$(cksum <"$T/dflt.oxm")" != "$(cksum <"$T/sw-defend1-average0.5.oxm")"
expect 0 "$TRAIN" --algo ntuple --game mnk:3,3,3 --tuples 8 --tuple-len 3 --episodes 100 --average 0.3 --no-defend \
    -q -o "$T/mnk-explicit.oxm"
ok "the defaults on m,n,k boards are not --average 0.3 --no-defend" cmp -s "$T/mnk.oxm" "$T/mnk-explicit.oxm"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --sweep defend=yes -o "$T/bad.oxm"
has err "defend='yes', expected 0 (off) or 1 (--defend)"
expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --sweep average=2 -o "$T/bad.oxm"
has err "--average: '2'"
expect 2 "$TRAIN" --algo td --sweep average=0,0.5 -o "$T/bad.oxm"
has err "--sweep: 'average' goes with --algo ntuple"
# A hundredth of the run beyond what the model counts (avg_every is 32 bits): refused before any
# training, as an option and in a sweep.
for a in "" "--average 0.5" "--sweep average=0,0.5"; do
    expect 2 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --episodes 500000000000 $a -o "$T/bad.oxm"
    has err "a hundredth of 500000000000 episodes is more rounds than it can count"
done
ok "a refused run left a model" test ! -e "$T/bad.oxm"

# --- The model depends on the workers, not on the threads; a resumed run continues exactly. ------
for th in 1 2; do
    expect 0 env OMP_NUM_THREADS=$th "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 20 \
        --tuple-len 6 --episodes 4000 --workers 2 --sync 500 --json -o "$T/w$th.oxm"
    jq -r .model_hash "$T/out" >"$T/hash$th"
done
ok "two workers on 1 and 2 threads gave different models" cmp -s "$T/hash1" "$T/hash2"
set -- --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 20 --tuple-len 6 --alpha-length 6000 \
    --epsilon-length 6000 --average 0
expect 0 "$TRAIN" "$@" --episodes 3000 -o "$T/half.oxm"
expect 0 "$TRAIN" --resume "$T/half.oxm" --table "$T/c44.oxt" --episodes 6000 --json -o "$T/resumed.oxm"
jq -r .model_hash "$T/out" >"$T/resumed"
expect 0 "$TRAIN" "$@" --episodes 6000 --json -o "$T/straight.oxm"
jq -r .model_hash "$T/out" >"$T/straight"
ok "resumed and straight runs differ" cmp -s "$T/resumed" "$T/straight"
# Experience replay of whole games: the same on 1 and 2 threads, resumed exactly (the rings are
# saved with the model); replayed games are learned again, so the model differs from no replay.
set -- --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 20 --tuple-len 6 --alpha-length 4000 \
    --epsilon-length 4000 --average 0 --replay 500 --replay-ratio 1 --workers 2 --sync 500 --exploring-starts 0.2
for th in 1 2; do
    expect 0 env OMP_NUM_THREADS=$th "$TRAIN" "$@" --episodes 4000 --json -o "$T/r$th.oxm"
    jq -r .model_hash "$T/out" >"$T/rhash$th"
done
ok "replay: two workers on 1 and 2 threads gave different models" cmp -s "$T/rhash1" "$T/rhash2"
expect 0 "$TRAIN" "$@" --replay 0 --episodes 4000 --json -o "$T/r0.oxm"
ok "replay changed nothing" test "$(jq -r .model_hash "$T/out")" != "$(cat "$T/rhash1")"
expect 0 "$TRAIN" "$@" --episodes 2000 -o "$T/rhalf.oxm"
expect 0 "$PLAY" --info "$T/rhalf.oxm" --json
jqok '.replay_capacity == 500'
expect 0 "$TRAIN" --resume "$T/rhalf.oxm" --table "$T/c44.oxt" --episodes 4000 --json -o "$T/rresumed.oxm"
ok "replay: resumed and straight runs differ" test "$(jq -r .model_hash "$T/out")" = "$(cat "$T/rhash1")"
# Replay is the default with gravity (each worker's last 2,000 games, the game's learn.replay, one replayed a game):
# the defaults are the same bytes as --replay 2000 spelled out; --replay-ratio alone keeps the
# ring; on an m,n,k board and with --replay 0 there is none.
set -- --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 20 --tuple-len 6 --episodes 3000 --workers 2
expect 0 "$TRAIN" "$@" --json -o "$T/rdef.oxm"
jq -r .model_hash "$T/out" >"$T/rdef"
expect 0 "$PLAY" --info "$T/rdef.oxm" --json
jqok '.replay_capacity == 2000 and .replay_ratio == 1 and .replay_rings == 2'
expect 0 "$TRAIN" "$@" --replay 2000 --replay-ratio 1 --json -o "$T/rexp.oxm"
ok "the default replay is not --replay 2000 --replay-ratio 1" test "$(jq -r .model_hash "$T/out")" = "$(cat "$T/rdef")"
expect 0 "$TRAIN" "$@" --replay-ratio 2 -q -o "$T/rr2.oxm"
expect 0 "$PLAY" --info "$T/rr2.oxm" --json
jqok '.replay_capacity == 2000 and .replay_ratio == 2'
expect 0 "$TRAIN" "$@" --replay 0 -q -o "$T/rnone.oxm"
expect 0 "$PLAY" --info "$T/rnone.oxm" --json
jqok '.replay_capacity == 0 and .replay_rings == 0'
expect 0 "$TRAIN" --algo ntuple --game mnk:3,3,3 --tuple-len 4 --episodes 500 -q -o "$T/rmnk.oxm"
expect 0 "$PLAY" --info "$T/rmnk.oxm" --json
jqok '.replay_capacity == 0 and .ntuple.count == 70'
# And 140 tuples with gravity unless told (the game's learn.tuples), GBG's 70 on m,n,k boards (above).
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuple-len 6 --episodes 200 -q -o "$T/t140.oxm"
expect 0 "$PLAY" --info "$T/t140.oxm" --json
jqok '.ntuple.count == 140'

# Connect-4 6x5 has no table, but a shipped opening book: the games against the perfect player are
# played by the solver looking the book up (200 a side), beside the judged set's share.
expect 0 "$GEN" --game connect4:6,5 --judge-set 100 -o "$T/c65.judge"
expect 0 "$TRAIN" --algo ntuple --game connect4:6,5 --judge "$T/c65.judge" --tuples 20 --tuple-len 6 \
    --episodes 2000 --json -o "$T/c65.oxm"
jqok '.perfect_as_x.wins + .perfect_as_x.draws + .perfect_as_x.losses == 200 and .perfect_as_x.wins == 0'
jqok '.perfect_as_o.wins + .perfect_as_o.draws + .perfect_as_o.losses == 200 and .perfect_as_o.wins == 0'
# The games are shared out to one solver a thread: the same figures on one thread.
jq -c '[.perfect_as_x, .perfect_as_o, .model_hash]' "$T/out" >"$T/games-threads"
expect 0 env OMP_NUM_THREADS=1 "$TRAIN" --algo ntuple --game connect4:6,5 --judge "$T/c65.judge" --tuples 20 \
    --tuple-len 6 --episodes 2000 --json -o "$T/c65-1.oxm"
jq -c '[.perfect_as_x, .perfect_as_o, .model_hash]' "$T/out" >"$T/games-1"
ok "the games against the perfect player differ on one thread" cmp -s "$T/games-threads" "$T/games-1"
# --perfect-games sets how many a colour (past a book each answer is a solve), 0 none.
expect 0 "$TRAIN" --algo ntuple --game connect4:6,5 --judge "$T/c65.judge" --tuples 20 --tuple-len 6 \
    --episodes 500 --perfect-games 7 --json -o "$T/c65b.oxm"
jqok '.perfect_as_x.wins + .perfect_as_x.draws + .perfect_as_x.losses == 7'
jqok '.perfect_as_o.wins + .perfect_as_o.draws + .perfect_as_o.losses == 7'
expect 0 "$PLAY" --info "$T/c65b.oxm" --json
jqok '(has("perfect_games") | not) and .format == "1.6"'
expect 0 "$TRAIN" --algo ntuple --game connect4:6,5 --judge "$T/c65.judge" --tuples 20 --tuple-len 6 \
    --episodes 500 --perfect-games 0 -o "$T/c65b.oxm"
has out "no games against the perfect player (--perfect-games 0)"
# --info said "games lost to the perfect player 0 as X, 0 as O" of a network that played none:
# the model says it played none (minor 11).
expect 0 "$PLAY" --info "$T/c65b.oxm"
ok "--info does not say the network played no games against the perfect player" \
    grep -q "value kept in [0-9.]*% of the judged positions, no games against the perfect player" "$T/out"
expect 0 "$PLAY" --info "$T/c65b.oxm" --json
jqok '.perfect_games == 0 and .format == "1.11"'
# A resumed network is graded on --judge's set too (the option was refused with --resume, whose
# algorithm comes from the model); a resumed tabular model has no judged set.
expect 0 "$TRAIN" --resume "$T/c65b.oxm" --judge "$T/c65.judge" --episodes 1000 --perfect-games 0 --json -o "$T/c65r.oxm"
jqok '.episodes == 1000 and (.graded_on | test("c65.judge"))'
expect 0 "$TRAIN" --episodes 100 -o "$T/tab.oxm"
expect 2 "$TRAIN" --resume "$T/tab.oxm" --judge "$T/c65.judge" --episodes 200 -o "$T/tab2.oxm"
has err "--judge goes with --algo ntuple"
# A curve nobody gave points for (--curve without --eval-every, 100 points) has the solver's games
# only at its last point; --eval-every's points all have them.
expect 0 "$TRAIN" --algo ntuple --game connect4:6,5 --judge "$T/c65.judge" --tuples 20 --tuple-len 6 \
    --episodes 1000 --perfect-games 3 --curve "$T/c65.csv" -o "$T/c65b.oxm"
ok "the curve's games against the perfect player, point by point: $(tail -n +2 "$T/c65.csv" | cut -d, -f15 | sort | uniq -c | tr -s ' \n' ' ')" \
    test "$(tail -n +2 "$T/c65.csv" | cut -d, -f15 | tr '\n' ' ')" = "$(printf '0 %.0s' $(seq 99))3 "
expect 0 "$TRAIN" --algo ntuple --game connect4:6,5 --judge "$T/c65.judge" --tuples 20 --tuple-len 6 \
    --episodes 1000 --perfect-games 3 --eval-every 500 --curve "$T/c65e.csv" -o "$T/c65b.oxm"
ok "--eval-every's points without their games: $(tail -n +2 "$T/c65e.csv" | cut -d, -f15 | tr '\n' ' ')" \
    test "$(tail -n +2 "$T/c65e.csv" | cut -d, -f15 | tr '\n' ' ')" = "3 3 "
expect 2 "$TRAIN" --algo td --perfect-games 3 -o "$T/x.oxm"; has err "--perfect-games goes with --algo ntuple"
expect 2 "$TRAIN" --algo ntuple --game connect4:6,5 --perfect-games 100001 -o "$T/x.oxm"; has err "--perfect-games"

# --- Playing the model: positions, hints, levels, games against the table. -----------------------
expect 0 "$PLAY" --model "$T/nt.oxm" --position 2332 --json
jqok '(.moves | length) == 4 and (.best | length) >= 1 and (.moves[0].value | type) == "number"'
expect 0 "$PLAY" --model "$T/nt.oxm" --position 2332 --hints
has out "column 1:"
expect 0 "$PLAY" --self-play --model "$T/nt.oxm" --versus "$T/c44.oxt" --games 50 --seed 3
has out "50 games"
expect 0 "$PLAY" --info "$T/nt.oxm"
has out "network: 40 tuples of 6 cells, 4 cell states"
expect 0 "$ARENA" --game connect4:4,4 --agent nt=model:"$T/nt.oxm" --agent random --games 20 --json
jqok '.ratings[0].agent == "nt"'
# An ensemble: networks joined by '+' play as one (each move valued by the mean of their values),
# with --model, as an agent and as an agent's value file; what is not a network is refused.
expect 0 "$PLAY" --model "$T/nt.oxm+$T/one.oxm" --position 2332 --json
jqok '(.moves | length) == 4'
expect 0 "$PLAY" --game connect4:4,4 --agent puct:200:value="$T/nt.oxm+$T/one.oxm" --self-play --versus "$T/c44.oxt" \
    --games 4 --seed 1
has out "4 games"
expect 0 "$ARENA" --game connect4:4,4 --agent ens=model:"$T/nt.oxm+$T/one.oxm" --agent random --games 10 --json
jqok '.ratings | length == 2'
expect 1 "$PLAY" --model "$T/nt.oxm+$T/c44.oxt" --position 1
has err "c44.oxt is not an n-tuple network: only networks are joined by '+'"
# The members in one command: a sweep over the seed, then joined.
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 10 --tuple-len 4 --episodes 2000 \
    --sweep seed=1,2,3 --perfect-games 0 -o "$T/ens.oxm"
expect 0 "$PLAY" --model "$T/ens-seed1.oxm+$T/ens-seed2.oxm+$T/ens-seed3.oxm" --position 2332 --json
jqok '(.moves | length) == 4'
# --info of an ensemble: each network's metadata, in the order joined.
expect 0 "$PLAY" --info "$T/nt.oxm+$T/one.oxm"
has out "$T/nt.oxm: model" && has out "$T/one.oxm: model"
for f in one nt; do
    expect 0 "$PLAY" --info "$T/$f.oxm" --json && cp "$T/out" "$T/$f.info"
done
expect 0 "$PLAY" --info "$T/one.oxm+$T/nt.oxm" --json
ok "one JSON object a network, in the order joined" test "$(cat "$T/out")" = "$(cat "$T/one.info" "$T/nt.info")"
expect 1 "$PLAY" --info "$T/nt.oxm+$T/c44.oxt"
has err "not an n-tuple network"
expect 1 "$PLAY" --model "$T/nt.oxm+$T/none.oxm" --position 1
has err "none.oxm: i/o error: cannot open"

# --- Connect-4 7x6: graded on the shipped judged set, without a table. ---------------------------
# (Games against the perfect player only where asked: past the shipped 7x6 book each of its
# answers is a solve.)
expect 0 "$TRAIN" --algo ntuple --game connect4 --tuples 20 --tuple-len 6 --episodes 2000 --perfect-games 0 \
    --json -o "$T/c76.oxm"
jqok '.graded_on | test("1000 positions of .*connect4-7-6.judge")'
jqok 'has("perfect_as_x") | not'
expect 0 "$TRAIN" --algo ntuple --game connect4 --tuples 20 --tuple-len 6 --episodes 2000 --perfect-games 2 \
    --json -o "$T/c76.oxm"
jqok '.perfect_as_x.wins + .perfect_as_x.draws + .perfect_as_x.losses == 2 and .perfect_as_x.wins == 0'
# A game with neither a table nor a book: no games against the perfect player, and it says why.
expect 0 "$GEN" --game connect4:5,5 --judge-set 30 -o "$T/c55.judge"
expect 0 "$TRAIN" --algo ntuple --game connect4:5,5 --judge "$T/c55.judge" --tuples 10 --tuple-len 4 \
    --episodes 500 -o "$T/c55.oxm"
has out "no games against the perfect player (no table or opening book of connect4 5x5)"
expect 0 "$PLAY" --model "$T/c76.oxm" --position 4444 --json
jqok '(.moves | length) == 7'
# m,n,k boards too: tic-tac-toe from its shipped table.
expect 0 "$TRAIN" --algo ntuple --game tictactoe --tuples 20 --tuple-len 4 --episodes 3000 --json -o "$T/ttt.oxm"
jqok '.accuracy > 0.5'

# Tuples from a file: one a line, comments allowed; the model holds them.
printf '# two rows and a column\n0 1 2 3\n12,13,14,15\n0 4 8 12 # the first column\n' >"$T/t.tuples"
expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuple-file "$T/t.tuples" --episodes 500 -o "$T/tf.oxm"
expect 0 "$PLAY" --info "$T/tf.oxm" && has out "network: 3 tuples of 4 cells"
printf '0 1 2\n3 4\n' >"$T/bad.tuples"
expect 1 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuple-file "$T/bad.tuples" -o "$T/x.oxm"
has err "line 2: 2 cells, the tuples before have 3"
printf '0 1 17\n' >"$T/bad.tuples"
expect 1 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuple-file "$T/bad.tuples" -o "$T/x.oxm"
has err "cell 2 is 17, beyond the 16 cells"
expect 2 "$TRAIN" --algo ntuple --tuple-file "$T/t.tuples" --tuples 3 -o "$T/x.oxm"; has err "--tuple-file gives the tuples"

# --- Bad arguments. ------------------------------------------------------------------------------
expect 2 "$TRAIN" --algo q --tuples 5 -o "$T/x.oxm"; has err "go with --algo ntuple"
expect 2 "$TRAIN" --algo ntuple --opponent random -o "$T/x.oxm"; has err "self-play"
expect 2 "$TRAIN" --algo ntuple --tuples 0 -o "$T/x.oxm"; has err "--tuples"
expect 1 "$TRAIN" --algo ntuple --game connect4:5,4 --judge "$T/j44.judge" --episodes 10 -o "$T/x.oxm"
has err "is a judged set of connect4:4,4, not of connect4:5,4"
printf 'game connect4:4,4\n2332 +-+\n' >"$T/bad.judge"
expect 1 "$TRAIN" --algo ntuple --game connect4:4,4 --judge "$T/bad.judge" --episodes 10 -o "$T/x.oxm"
has err "line 2: expected a board and 4 move values"
printf 'game connect4:4,4\n2222 ++++\n' >"$T/bad.judge"
expect 1 "$TRAIN" --algo ntuple --game connect4:4,4 --judge "$T/bad.judge" --episodes 10 -o "$T/x.oxm"
has err "line 2: move"
# A board that does not parse is named as such, whatever the memory its position would have filled
# held (MALLOC_PERTURB_ fills fresh memory: the position was read before it was set, and the set
# called "over").
printf 'game connect4:4,4\n2x32 ++++\n' >"$T/bad.judge"
expect 1 env MALLOC_PERTURB_=85 "$TRAIN" --algo ntuple --game connect4:4,4 --judge "$T/bad.judge" --episodes 10 -o "$T/x.oxm"
has err "line 2: moves \"2x32\": character 'x'"
printf 'game connect4:4,4\n1212121 ++++\n' >"$T/bad.judge"
expect 1 "$TRAIN" --algo ntuple --game connect4:4,4 --judge "$T/bad.judge" --episodes 10 -o "$T/x.oxm"
has err "line 2: the game is over"
expect 1 "$TRAIN" --algo ntuple --game connect4:6,5 --episodes 10 -o "$T/x.oxm"; has err "oxo-gen --game connect4:6,5 --judge-set"
# Judged sets and tuple files that are not what they seem: refused at once, never waited on.
mkfifo "$T/fifo"
expect 1 timeout 10 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --judge "$T/fifo" -o "$T/x.oxm"
has err "not a regular file"
expect 1 timeout 10 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuple-file "$T/fifo" -o "$T/x.oxm"
has err "not a regular file"
printf 'game connect4:4,4\n23\00032 ++++\n' >"$T/bad.judge"
expect 1 "$TRAIN" --algo ntuple --game connect4:4,4 --judge "$T/bad.judge" --episodes 10 -o "$T/x.oxm"
has err "line 2: holds a NUL byte"
expect 2 "$GEN" --game tictactoe --judge-set 5 -o "$T/x.judge"; has err "not Connect-4"
expect 2 "$GEN" --game connect4 --seed 3 -o "$T/x.judge"; has err "go with --judge-set"
# The search phase (--search-games): after the run, games led by puct over the network, which
# learns from the search; recorded in the model (minor 7), the same bytes whatever the thread
# count, and the same weights when run alone on the finished model (--resume at its episodes).
small="--algo ntuple --game connect4:4,4 --table $T/c44.oxt --tuples 24 --tuple-len 6 --episodes 4000 --workers 2"
expect 0 env OMP_NUM_THREADS=2 "$TRAIN" $small --search-games 300 --search-iterations 50 --json -o "$T/srch.oxm"
jqok '.search.games == 300 and .search.iterations == 50'
empty err # no progress off a terminal
# On a terminal (script(1), util-linux's) the phase shows its games as its rounds end.
if command -v script >/dev/null 2>&1; then
    expect 0 script -qec "'$TRAIN' $small --search-games 100 --search-iterations 20 -o '$T/tty.oxm'" /dev/null
    has out "search phase 50/100 games"
    has out "search phase 100/100 games"
    # The training's progress line: no grade shown before one exists ("accuracy 0.00%" was), the
    # ETA of the whole run names the grading still to come, a line about every second rather than
    # every 50,000 games, and the same bytes as off a terminal.
    expect 0 script -qec "'$TRAIN' --algo ntuple --game connect4:4,4 --table '$T/c44.oxt' --tuples 24 --tuple-len 6 --episodes 60000 -o '$T/tty2.oxm'" /dev/null
    tr '\r' '\n' <"$T/out" | grep '^oxo-train: [0-9]*/60000 episodes' >"$T/lines"
    # The first line comes after the first 10,000 games, then about every second: how many lines a
    # run of 60,000 shows depends on the machine's speed (an idle one trains it in 2 s), the
    # first one's place does not.
    first=$(head -1 "$T/lines" | sed 's|^oxo-train: \([0-9]*\)/.*|\1|')
    ok "the first progress line comes at $first games, expected by 10,000 (it was 50,000)" test "${first:-60000}" -le 10000
    ok "progress lines: the first and the last at least" test "$(wc -l <"$T/lines")" -ge 2
    ok "no grade shown before one exists" sh -c '! grep -q "accuracy 0.00%" "$1"' - "$T/lines"
    ok "the ETA names the grading to come" grep -q "ETA [0-9]* s and the grading" "$T/lines"
    expect 0 "$TRAIN" --algo ntuple --game connect4:4,4 --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 60000 -o "$T/notty2.oxm"
    ok "the same model on a terminal and off it" cmp -s "$T/tty2.oxm" "$T/notty2.oxm"
fi
expect 0 env OMP_NUM_THREADS=1 "$TRAIN" $small --search-games 300 --search-iterations 50 -q -o "$T/srch1.oxm"
ok "the search phase is the same on one thread" cmp -s "$T/srch.oxm" "$T/srch1.oxm"
expect 0 "$PLAY" --info "$T/srch.oxm" --json
jqok '.format == "1.7" and .ntuple.search == {"games": 300, "iterations": 50, "alpha": 0.002}'
srch_hash=$(jq -r .hash "$T/out")
expect 0 "$PLAY" --info "$T/srch.oxm"
has out "then 300 games of self-play led by puct:50"
expect 0 "$TRAIN" $small --search-games 300 --search-iterations 50 --search-alpha 0.001 -q -o "$T/srcha.oxm"
expect 0 "$PLAY" --info "$T/srcha.oxm" --json
jqok '.ntuple.search.alpha == 0.001'
ok "the phase's step changed the network" test "$(jq -r .hash "$T/out")" != "$srch_hash"
expect 0 "$TRAIN" $small -q -o "$T/nosrch.oxm"
expect 0 "$PLAY" --info "$T/nosrch.oxm" --json
jqok '.format == "1.6" and (.ntuple | has("search") | not)'
ok "the search phase changed the network" test "$(jq -r .hash "$T/out")" != "$srch_hash"
expect 0 "$TRAIN" --resume "$T/nosrch.oxm" --table "$T/c44.oxt" --episodes 4000 --search-games 300 --search-iterations 50 --json \
    -o "$T/srch2.oxm"
jqok '.search.games == 300 and .episodes == 4000'
expect 0 "$PLAY" --info "$T/srch2.oxm" --json
jqok ".hash == \"$srch_hash\" and .ntuple.search.games == 300"
# Once is enough at one episode count; resumed to more, the network learns on and the record goes.
expect 1 "$TRAIN" --resume "$T/srch.oxm" --table "$T/c44.oxt" --episodes 4000 --search-games 300 -o "$T/x.oxm"
has err "went through a search phase already (300 games of puct:50)"
ok "a refused second phase wrote nothing" test ! -e "$T/x.oxm"
expect 0 "$TRAIN" --resume "$T/srch.oxm" --table "$T/c44.oxt" --episodes 6000 -q -o "$T/more.oxm"
expect 0 "$PLAY" --info "$T/more.oxm" --json
jqok '.episodes == 6000 and (.ntuple | has("search") | not)'
expect 2 "$TRAIN" --algo td --search-games 10 -o "$T/x.oxm"
has err "--search-games, --search-iterations and --search-alpha go with --algo ntuple"
expect 2 "$TRAIN" $small --search-iterations 10 -o "$T/x.oxm"
has err "--search-iterations and --search-alpha go with --search-games"
expect 2 "$TRAIN" $small --search-alpha 0.01 -o "$T/x.oxm"
has err "--search-iterations and --search-alpha go with --search-games"
expect 2 "$TRAIN" $small --search-games 10 --search-alpha 0 -o "$T/x.oxm"
has err "--search-alpha"
expect 2 "$TRAIN" $small --search-games 10 --search-iterations 0 -o "$T/x.oxm"
has err "--search-iterations"

# A network of model minor 3 (every filling of its tuples, before the layout of minor 4) still
# plays, and --strip writes it back as minor 3, playing the same.
OLD="$SRC/tests/fuzz/corpus/file/nt-replay.oxm"
expect 0 "$PLAY" --info "$OLD" --json
jqok '.format == "1.3" and .replay_rings == 1'
expect 0 "$PLAY" --model "$OLD" --position 1 --json
cp "$T/out" "$T/old-moves"
expect 0 "$TRAIN" --strip "$OLD" -o "$T/old-strip.oxm"
expect 0 "$PLAY" --info "$T/old-strip.oxm" --json
jqok '.format == "1.3" and .replay_rings == 0'
expect 0 "$PLAY" --model "$T/old-strip.oxm" --position 1 --json
ok "the stripped minor-3 network plays otherwise" cmp -s "$T/out" "$T/old-moves"
finish
