#!/bin/sh
# What a user sees, held still while the code is rebuilt under it: a fixed set of outputs (tables
# of every game family, a book, fixed-seed models of every learner, the arena's JSON, every export
# form, the players' --json answers, --info and --help) and the SHA-256 of each, compared with
# tests/golden.sha256, made before the house was rebuilt (issue 45: "nothing a user sees changes").
# A deliberate change of an output updates that file in the same commit, saying why:
#   OXO_GOLDEN_UPDATE=1 sh tests/e2e_golden.sh BUILD   (rewrites tests/golden.sha256)
# What varies with the machine and the moment is taken out before hashing: times, rates, peak
# memory and the thread count of the --json lines and summaries.
. "$(dirname "$0")/lib.sh"
BUILD=$1
SRC=$(cd "${OXO_SOURCE_DIR:-$(dirname "$0")/..}" && pwd)
GEN=$BUILD/oxo-gen TRAIN=$BUILD/oxo-train PLAY=$BUILD/oxo-play ARENA=$BUILD/oxo-arena EXPORT=$BUILD/oxo-export
G=$T/golden
mkdir "$G"
cd "$T" || exit 1
sums=$T/sums

# keep NAME CMD...: runs CMD (it must exit 0) and hashes what it printed on stdout, as NAME;
# with DROP=KEY, JSON output without that key.
keep() {
    name=$1; shift
    if expect 0 "$@"; then
        [ -n "${DROP:-}" ] && jq -c "del(.$DROP)" "$T/out" >"$T/drop" && mv "$T/drop" "$T/out"
        # Times vary from run to run; nothing else may.
        sed -E -e 's/"(seconds|peak_bytes|threads|[a-z_]*per_s[a-z_]*)":[0-9.e+-]*/"\1":0/g' \
            -e 's/[0-9.]+ episodes\/s/N episodes\/s/' "$T/out" >"$G/$name"
        printf '%s  %s\n' "$(sha256sum <"$G/$name" | cut -d' ' -f1)" "$name" >>"$sums"
    fi
}
# file NAME: hashes a file a command wrote, as NAME.
file() {
    checks=$((checks + 1))
    if [ -f "$1" ]; then
        printf '%s  %s\n' "$(sha256sum <"$1" | cut -d' ' -f1)" "$1" >>"$sums"
    else
        echo "FAIL: $1 was not written"; fails=$((fails + 1))
    fi
}
: >"$sums"

# Tables: each family, a board with a table in the small form and the large, and a book.
for g in tictactoe mnk:3,4,3 mnk:4,4,3 connect4:4,4 connect4:5,3; do
    f=$(echo "$g" | tr ':,' '--').oxt
    keep "gen-$f.json" "$GEN" --game "$g" --json -o "$f" && file "$f"
done
# (the book's search nodes depend on which thread took which leaf: not hashed)
DROP=nodes keep gen-book.json "$GEN" --game connect4:5,4 --book 4 --json -o book.oxt && file book.oxt
keep gen-judge.json "$GEN" --game connect4:4,4 --judge-set 30 --min-stones 4 -o c44.judge && file c44.judge

# Models: every learner, one worker and two, tabular and n-tuple, on both families.
keep train-q "$TRAIN" --algo q --table tictactoe.oxt --episodes 3000 --quiet -o q.oxm && file q.oxm
keep train-td "$TRAIN" --algo td --table tictactoe.oxt --episodes 3000 --quiet -o td.oxm && file td.oxm
keep train-q2 "$TRAIN" --algo q --game mnk:3,4,3 --table mnk-3-4-3.oxt --workers 2 --episodes 4000 --quiet -o q2.oxm && file q2.oxm
keep train-td-c4 "$TRAIN" --algo td --game connect4:4,4 --table connect4-4-4.oxt --episodes 3000 --opponent self=0.5,random=0.5 --quiet -o td-c4.oxm && file td-c4.oxm
keep train-nt "$TRAIN" --algo ntuple --table tictactoe.oxt --episodes 2000 --quiet -o nt.oxm && file nt.oxm
keep train-nt-c4 "$TRAIN" --algo ntuple --game connect4:4,4 --table connect4-4-4.oxt --episodes 2000 --workers 2 --quiet -o nt-c4.oxm && file nt-c4.oxm
keep train-nt-judge "$TRAIN" --algo ntuple --game connect4:4,4 --judge c44.judge --episodes 1000 --tuples 20 --quiet -o nt-j.oxm && file nt-j.oxm

# What the players answer.
keep info-q "$PLAY" --info q.oxm --json
keep info-nt "$PLAY" --info nt-c4.oxm --json
keep info-table "$PLAY" --info connect4-4-4.oxt --json
keep info-book "$PLAY" --info book.oxt --json
keep pos-table "$PLAY" --table tictactoe.oxt --position 'X...O....' --json
keep pos-mnk "$PLAY" --game mnk:4,4,3 --table mnk-4-4-3.oxt --position 'X..........O....' --json
keep pos-model "$PLAY" --model q.oxm --position 'X...O....' --json
keep pos-nt "$PLAY" --game connect4:4,4 --model nt-c4.oxm --position 12 --json
keep pos-book "$PLAY" --game connect4:5,4 --book book.oxt --position 33 --json
keep pos-solver "$PLAY" --game connect4:5,4 --no-book --agent solver --position 334 --json
keep pos-budget "$PLAY" --game connect4:5,4 --agent solver:nodes=2000 --position 33 --json
printf '1\n12\n123\n2\n' >boards
IN=$T/boards
keep batch-c4 "$PLAY" --game connect4:4,4 --table connect4-4-4.oxt --batch --json
IN=/dev/null
keep self-play "$PLAY" --table tictactoe.oxt --self-play --versus td.oxm --games 3 --seed 5 --json
keep self-agents "$PLAY" --game connect4:4,4 --agent mcts:40 --versus-agent alphabeta:3 --self-play --games 2 --seed 3 --json
keep self-levels "$PLAY" --table tictactoe.oxt --self-play --level 4 --games 20 --seed 9
keep arena "$ARENA" --game tictactoe --agent random --agent table:tictactoe.oxt --agent model:q.oxm --agent alphabeta:2 \
    --agent mcts:50 --agent model:nt.oxm --games 4 --bootstrap 20 -j 1 --judge table:tictactoe.oxt --json --svg arena.svg
file arena.svg
keep arena-c4 "$ARENA" --game connect4:4,4 --agent random --agent solver --agent puct:30:value=nt-c4.oxm --games 2 \
    --bootstrap 10 -j 2 --judge table:connect4-4-4.oxt

# Every export form.
keep export-c "$EXPORT" --table tictactoe.oxt -f c -o - && mv "$G/export-c" "$G/export-c.c"
keep export-c-c4 "$EXPORT" --game connect4:4,4 --table connect4-4-4.oxt -f c -o -
keep export-small "$EXPORT" --model q.oxm -f c-small -o -
keep export-small-table "$EXPORT" --table mnk-3-4-3.oxt --game mnk:3,4,3 -f c-small -o -
keep export-nt "$EXPORT" --model nt-c4.oxm -f c -n net -o -
keep export-python "$EXPORT" --table tictactoe.oxt -f python -o -
keep export-qtable "$EXPORT" --model td.oxm -f qtable -o -

# Every program's --help and --version.
for p in gen train play arena export; do
    keep "help-$p" "$BUILD/oxo-$p" --help
done

if [ "${OXO_GOLDEN_UPDATE:-0}" = 1 ]; then
    cp "$sums" "$SRC/tests/golden.sha256"
    echo "rewrote $SRC/tests/golden.sha256 ($(wc -l <"$sums") outputs)"
else
    # Each output compared by name, so a failure says which one moved.
    while read -r sum name; do
        checks=$((checks + 1))
        want=$(awk -v n="$name" '$2 == n { print $1 }' "$SRC/tests/golden.sha256")
        if [ "$want" != "$sum" ]; then
            echo "FAIL: $name changed (sha256 ${want:-absent} then, $sum now)"
            [ -f "$G/$name" ] && head -c 600 "$G/$name" | sed 's/^/  now: /'
            fails=$((fails + 1))
        fi
    done <"$sums"
    ok "tests/golden.sha256 names outputs this test no longer makes" \
        test "$(wc -l <"$SRC/tests/golden.sha256")" = "$(wc -l <"$sums")"
fi
finish
