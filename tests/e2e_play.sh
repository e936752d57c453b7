#!/bin/sh
# oxo-play as a user runs it: scripted queries, the interactive game on a pipe, bad input.
. "$(dirname "$0")/lib.sh"
PLAY=$1
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}
FIX=$SRC/tests/fixtures

expect 0 "$PLAY" --position ......... --json
has out '{"to_move":"X","value":"draw","distance":9,"best":[0,1,2,3,4,5,6,7,8],"best_labels":[1,2,3,4,5,6,7,8,9],"moves":[{"move":0,"label":1,"cell":0,"value":"draw","distance":9},'
expect 0 "$PLAY" --position XX.OO.... --json
has out '"value":"win","distance":1,"best":[2]'
expect 0 "$PLAY" -p X...O...X
has out "O to move: draw in 6"
has out "best: 2 4 6 8"
expect 0 "$PLAY" --position XXXOO.... --json
has out '"to_move":"O","value":"loss","distance":0,"best":[],"best_labels":[],"moves":[]'

# Batch: one object a line; a bad line gets an error object, a message, and exit 1.
printf '.........\nXX.OO....\nXX.......\nXOZ......\n' >"$T/in"
IN=$T/in expect 1 "$PLAY" --batch --json
checks=$((checks + 1)); [ "$(wc -l <"$T/out")" = 4 ] || { echo "FAIL: batch printed $(wc -l <"$T/out") lines"; fails=$((fails + 1)); }
has out '{"error":"board \"XX.......\" has 2 X and 0 O'
has err "(line 3 of the batch)"
has err "character 'Z' at position 3"
IN=/dev/null

# Any agent answers --position and --batch with the move it plays: puct led by the table keeps the
# value on every line (a win stays a win, not always the fastest), a finished game gets a null
# move; a random agent draws from --seed; a bad board is refused as above.
printf '.........\nX...O....\nXX.OO....\nX.O.X.O..\nXO.XO....\nXXXOO....\n' >"$T/in"
IN=$T/in expect 0 "$PLAY" --agent "puct:500:value=$SRC/data/tictactoe.oxt" --batch --json
cp "$T/out" "$T/agent"
IN=$T/in expect 0 "$PLAY" --batch --json
ok "puct played a move that loses the value, or answered $(wc -l <"$T/agent") lines for 6" \
    sh -c "jq -e -n --slurpfile a '$T/agent' --slurpfile t '$T/out' '(\$a | length) == 6 and
        ([range(0; 6) as \$i | \$a[\$i] as \$m | if \$m.move == null then \$t[\$i].moves == []
          else any(\$t[\$i].moves[]; .move == \$m.move and .value == \$t[\$i].value) end] | all)' >/dev/null"
has agent '{"to_move":"O","agent":"puct:500:value='
has agent '"move":null,"status":"loss"}'
expect 0 "$PLAY" --agent random --seed 7 -p X...O....
cp "$T/out" "$T/first"
has out "X to move: random plays cell "
expect 0 "$PLAY" --agent random --seed 7 -p X...O....
cp "$T/out" "$T/second"
expect 0 cmp "$T/second" "$T/first"
expect 1 "$PLAY" --agent random -p XOZ...... --json; has out '{"error":"board'
IN=/dev/null

# Self-play is repeatable with a seed and never loses at level 10 (a draw, with the table).
expect 0 "$PLAY" --self-play --seed 5
cp "$T/out" "$T/first"
has out "result: draw"
expect 0 "$PLAY" --self-play --seed 5
cp "$T/out" "$T/second"
expect 0 cmp "$T/second" "$T/first"

# --self-play --json: each game's moves and result, then the tally; the same games as without it.
expect 0 "$PLAY" --self-play --seed 5 --json
has out '"result":"draw"}'
jq -r 'select(.moves) | .moves[]' "$T/out" >"$T/json-moves"
sed -n 's/^[0-9]*\. [XO] plays \([0-9]*\)$/\1/p' "$T/first" >"$T/text-moves"
ok "--json's moves ($(tr '\n' ' ' <"$T/json-moves")) are the transcript's ($(tr '\n' ' ' <"$T/text-moves"))" \
    cmp -s "$T/json-moves" "$T/text-moves"
expect 0 "$PLAY" --self-play --games 30 --level 2 --seed 7
sed -n 's/^30 games: X won \([0-9]*\), drawn \([0-9]*\), O won \([0-9]*\)$/{"games":30,"x_wins":\1,"draws":\2,"o_wins":\3}/p' "$T/out" >"$T/want-tally"
expect 0 "$PLAY" --self-play --games 30 --level 2 --seed 7 --json
tail -n 1 "$T/out" >"$T/got-tally"
ok "--json's tally ($(cat "$T/got-tally")) is the text's ($(cat "$T/want-tally"))" cmp -s "$T/got-tally" "$T/want-tally"
ok "--json wrote $(grep -c '"game":' "$T/out") games, not 30" test "$(grep -c '"game":' "$T/out")" = 30
# Each game's result is the one its moves lead to: the final board, read back by --position, is
# over, and lost by the side to move unless drawn.
head -n 30 "$T/out" | jq -r '. as $g | [range(0;9) as $c | ($g.moves | index($c + 1)) as $i |
    if $i == null then "." elif $i % 2 == 0 then "X" else "O" end] | join("") + " " + $g.result' >"$T/finals"
while read -r board result; do
    "$PLAY" --position "$board" --json >"$T/final" 2>&1
    case $result in
    draw) want='"value":"draw","distance":0' ;;
    X) want='{"to_move":"O","value":"loss","distance":0' ;;
    *) want='{"to_move":"X","value":"loss","distance":0' ;;
    esac
    grep -q "$want" "$T/final" && grep -q '"moves":\[\]' "$T/final" ||
        { echo "FAIL: game ending at $board said $result: $(cat "$T/final")"; fails=$((fails + 1)); }
    checks=$((checks + 1))
done <"$T/finals"
ok "the 30 games hold wins and draws: $(cut -d' ' -f2 "$T/finals" | sort | uniq -c | tr -s ' \n' ' ')" \
    test "$(cut -d' ' -f2 "$T/finals" | sort -u | wc -l)" -ge 2

# Interactive: every kind of bad input gets a message and a new prompt.
printf 'abc\n0\n10\n5\n5\n' >"$T/in"
IN=$T/in expect 1 "$PLAY" --human o --seed 1 --hints
has out "'abc' is not a number"
has out "0 is out of range"
has out "10 is out of range"
has out "hints:"
has err "end of input before the game ended"
printf '5\n5\nq\n' >"$T/in"
IN=$T/in expect 0 "$PLAY" --seed 1
has out "cell 5 is taken"
has out "game abandoned"

# Info.
expect 0 "$PLAY" --info "$SRC/data/tictactoe.oxt" --json
# (a small game's table is format 1: no keys, the positions numbered by the enumeration)
has out '"kind":"table","format":"1.0","game":"tictactoe","rows":3,"cols":3,"index":"ply-code","symmetric":true,"entries":765'
expect 0 "$PLAY" --info "$SRC/data/tictactoe.oxt"
has out "solved table, format 1.0"

# The shipped table is found from any folder.
(cd / && "$PLAY" --position ......... --json >/dev/null) || { echo "FAIL: default table not found from /"; fails=$((fails + 1)); }

# Bad usage and bad files.
expect 2 "$PLAY" --level 0;          has err "--level: '0' is not a whole number from 1 to 10"
expect 2 "$PLAY" --level abc;        has err "--level: 'abc'"
expect 2 "$PLAY" --seed -1;          has err "--seed: '-1'"
expect 2 "$PLAY" --human z;          has err "--human: 'z', expected x or o"
expect 2 "$PLAY" --json;             has err "--json goes with --position, --batch, --info, --self-play or --judge"
expect 2 "$PLAY" --bogus;            has err "unknown option '--bogus'"
expect 2 "$PLAY" --position;         has err "option --position needs a value"
expect 2 "$PLAY" -p ......... --batch; has err "choose one of"
expect 1 "$PLAY" --position XX....... ; has err "has 2 X and 0 O"
expect 1 "$PLAY" --table /nonexistent.oxt -p .........; has err "cannot open /nonexistent.oxt"
expect 1 "$PLAY" --table / -p .........; has err "not a regular file"
expect 1 "$PLAY" --table "$FIX/bad-checksum.oxt" -p .........; has err "checksum mismatch"
expect 1 "$PLAY" --table "$FIX/wrong-entry.oxt" -p .........; has err "says win in 5"
expect 1 "$PLAY" --info "$FIX/future-major.oxt"; has err "table format 4.0 unsupported (this build reads 1.x to 3.x)"
expect 2 "$PLAY" --model "$SRC/data/tictactoe.oxt" -p .........; has err "is a table; use --table"
# The prompt takes a line holding a NUL byte for nothing ("4<NUL>junk" was cell 4).
printf '1\000junk\n2\n5\n3\n7\n9\n4\n6\n8\n' >"$T/nul-moves"
IN="$T/nul-moves"
expect 0 "$PLAY" --seed 1
has out "that line holds a NUL byte"
has out "result: draw"
IN=/dev/null
# --hints with a model shows its learned scores (it showed nothing for tabular models and networks).
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}
printf '5\n1\n3\n7\n9\n' >"$T/hint-moves"
IN="$T/hint-moves"
expect 0 "$PLAY" --model "$SRC/data/q.oxm" --hints --seed 1
has out "hints (learned scores, higher is better):  1 +0.00  2 +0.00"
printf '4\n4\n' >"$T/hint-moves"
expect 1 "$PLAY" --model "$SRC/data/connect4-7-6-ntuple.oxm" --hints --seed 1
has out "hints (learned scores, higher is better):  1 -0.84  2 -0.72  3 -0.13  4 +0.67"
IN=/dev/null
# Boards of 10 columns and more are named with columns separated by commas ("10,3,10"), in
# --position, --batch and liboxo alike (one digit a move could not name column 10).
expect 0 "$PLAY" --game connect4:10,4 --agent alphabeta:2 --position 10,3,10 --json && has out '"to_move":"O"'
expect 1 "$PLAY" --game connect4:10,4 --agent alphabeta:2 --position 103; has err "separate them by commas: 10,3,12"
expect 1 "$PLAY" --game connect4:10,4 --agent alphabeta:2 --position 10,3,11; has err 'move 3 is "11", expected a column from 1 to 10'
expect 0 "$PLAY" --game connect4 --agent alphabeta:2 --position 4,4 --json && has out '"to_move":"X"'
printf '10,9,10,9,10,9\n1 2 3\n' >"$T/wide"
IN="$T/wide"
expect 0 "$PLAY" --game connect4:10,4 --agent alphabeta:2 --batch
has out '"move":9,'
IN=/dev/null
finish
