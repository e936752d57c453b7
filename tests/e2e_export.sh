#!/bin/sh
# oxo-export, checked the way its users use what it writes: the exported C players compiled and
# compared with liboxo on every position (tic-tac-toe, connect4:4,4, mnk:3,4,3, a model, two
# networks joined; networks exported as themselves along random games, 7x6 too), the freestanding
# build (no undefined symbol; at most 1,024 bytes for tic-tac-toe, on x86-64 and, with Debian's
# gcc-arm-none-eabi, on a Cortex-M0), and the JSON exports read by small Python and JavaScript
# players written to their layouts' descriptions, which must never lose.
# Usage: e2e_export.sh BUILD_DIR SOURCE_DIR [forms]
. "$(dirname "$0")/lib.sh"
BUILD=$1 SRC=$2
EXP=$BUILD/oxo-export
GEN=$BUILD/oxo-gen
PLAY=$BUILD/oxo-play
TTT=$SRC/data/tictactoe.oxt
C76=$SRC/data/connect4-7-6-ntuple.oxm

# Every form written by oxo-export itself (q.c and c76.c are compiled and driven below). Under the
# sanitizers (a third argument, "forms") only this runs: the outside programs below cannot be built
# against a sanitized liboxo.
for form in c c-small python qtable; do
    expect 0 "$EXP" -f $form -o "$T/out.$form" && ok "the $form export is written" test -s "$T/out.$form"
done
expect 0 "$EXP" -m "$SRC/data/q.oxm" -o "$T/q.c" --json && has out '"form":"c-small"'
expect 0 "$EXP" -m "$C76" -f c -o "$T/c76.c" --json && has out '"weights":3287040'
expect 1 "$EXP" -m "$C76" -o "$T/x" && has err "(--form c exports the network itself)"
expect 2 "$EXP" -m "$SRC/data/td.oxm" -f c -o "$T/x" && has err "another model"
# Nothing the user names reaches the generated code unescaped, nor the folders of the exporting
# machine: a path holding "*/" ended the comment, and the code after it was compiled.
mkdir -p "$T/p*/int pwned = 42;"
cp "$TTT" "$T/p*/int pwned = 42;/*x.oxt"
expect 0 "$EXP" -t "$T/p*/int pwned = 42;/*x.oxt" -f c -o "$T/inj.c"
ok "the input's folders are not in the export" sh -c '! grep -qF "$1" "$2"' - "$T" "$T/inj.c"
ok "the input's name ends no comment" sh -c '! grep -qF "*/int pwned" "$1"' - "$T/inj.c"
ok "the export names the input by its last component, escaped" grep -qF "from _x.oxt (" "$T/inj.c"
expect 0 cc -c -w -o "$T/inj.o" "$T/inj.c"
ok "no symbol 'pwned' is compiled" sh -c '! nm "$1" | grep -q pwned' - "$T/inj.o"
if [ "${3:-}" = forms ]; then
    finish
    exit
fi

# The command line.
expect 0 "$EXP" --help && has out "Usage: oxo-export"
expect 0 "$EXP" --version && has out "oxo-export "
expect 2 "$EXP" && has err "-o FILE"
expect 2 "$EXP" -f rust -o "$T/x" && has err "expected c, c-small, python or qtable"
expect 2 "$EXP" -m "$SRC/data/q.oxm" -f c -o "$T/x" && has err "needs a solved table"
expect 2 "$EXP" -n "9lives" -o "$T/x" && has err "not a C identifier"
expect 2 "$EXP" -t "$TTT" -o "$TTT" && has err "would overwrite the input file"
expect 1 "$EXP" -t "$SRC/data/q.oxm" -o "$T/x" && has err "is a model: use --model"
expect 1 "$EXP" -g mnk:4,4,4 -t "$TTT" -o "$T/x" && has err "not of mnk"
ok "a refused export writes nothing" test ! -e "$T/x"

# drive FILE TABLE [small | net GAMES]: compiles the driver around an exported file, runs it on every
# position (a network's export: along GAMES random games).
drive() {
    flag=""; games=""
    [ "${3:-}" = small ] && flag=-DOXP_SMALL
    [ "${3:-}" = net ] && flag=-DOXP_NET && games=$4
    expect 0 cc -std=c11 -O1 -Wall -Wextra -Werror -Wno-unused-function $flag -DOXP_FILE="\"$1\"" \
        -I"$SRC/lookup/include" "$SRC/tests/export/driver.c" "$BUILD/liboxo.a" -lzstd -lmsgpackc -lm -o "$T/driver" &&
    expect 0 "$T/driver" "$2" $games && has out "all agree"
}

# Tic-tac-toe: every one of the 5,478 positions, both forms.
expect 0 "$EXP" -f c -o "$T/ttt.c" --json && has out '"entries":627'
drive "$T/ttt.c" "$TTT" && has out "5478 positions (4520 not finished)"
expect 0 "$EXP" -f c-small -o "$T/ttt-small.c" --json && has out '"form":"c-small"'
drive "$T/ttt-small.c" "$TTT" small && has out "5478 positions (4520 not finished)"
expect 0 "$EXP" -f c-small -o "$T/again.c"
ok "an export is the same bytes every time" cmp -s "$T/ttt-small.c" "$T/again.c"

# The freestanding builds: nothing but <stdint.h>, no symbol from outside, and the size.
for form in ttt ttt-small; do
    expect 0 cc -std=c11 -Os -Wall -Wextra -Werror -pedantic -ffreestanding -nostdlib -c "$T/$form.c" -o "$T/$form.o"
done
ok "the exported players include nothing but <stdint.h>" sh -c "! grep '#include' '$T/ttt.c' '$T/ttt-small.c' | grep -v '<stdint.h>'"
ok "the small player needs no symbol from outside" sh -c "[ -z \"\$(nm -u '$T/ttt-small.o')\" ]"
x86=$(size "$T/ttt-small.o" | awk 'NR == 2 { print $1 + $2 }')
ok "the small tic-tac-toe player fits in 1,024 bytes on x86-64 ($x86)" test "$x86" -le 1024
echo "tic-tac-toe small player, x86-64 -Os: $x86 bytes (text + data)"
quotes lookup/SHIPPING.md "| x86-64 (gcc -Os) | $x86 bytes |"
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    expect 0 arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb -std=c11 -Os -Wall -Wextra -Werror -ffreestanding -nostdlib \
        -c "$T/ttt-small.c" -o "$T/m0.o"
    ok "the Cortex-M0 player needs no symbol from outside" sh -c "[ -z \"\$(arm-none-eabi-nm -u '$T/m0.o')\" ]"
    m0=$(arm-none-eabi-size "$T/m0.o" | awk 'NR == 2 { print $1 + $2 }')
    ok "the small tic-tac-toe player fits in 1,024 bytes on a Cortex-M0 ($m0)" test "$m0" -le 1024
    echo "tic-tac-toe small player, Cortex-M0 -Os: $m0 bytes (text + data)"
    quotes lookup/SHIPPING.md "| Cortex-M0 (arm-none-eabi-gcc -Os) | $m0 bytes |"
    readme_quotes "Cortex-M0 (arm-none-eabi-gcc -Os) | $m0 bytes |" # the headline figures
    # The full player too (values, levels: its random stream multiplies 64-bit numbers, which made
    # gcc call libgcc's __aeabi_lmul on a Cortex-M0 although the header promises -nostdlib).
    expect 0 "$EXP" -f c -o "$T/ttt-full.c"
    expect 0 arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb -std=c11 -Os -Wall -Wextra -Werror -ffreestanding -nostdlib \
        -c "$T/ttt-full.c" -o "$T/m0full.o"
    ok "the full Cortex-M0 player needs no symbol from outside ($(arm-none-eabi-nm -u "$T/m0full.o" | tr -s ' \n' ' '))" \
        sh -c "[ -z \"\$(arm-none-eabi-nm -u '$T/m0full.o')\" ]"
else
    echo "arm-none-eabi-gcc not installed: the Cortex-M0 build is not checked (apt-get install gcc-arm-none-eabi)"
fi

# Other games: Connect-4 (gravity, mirror only) and a board that is not square.
for spec in connect4:4,4 mnk:3,4,3; do
    expect 0 "$GEN" --game "$spec" -o "$T/g.oxt"
    expect 0 "$EXP" -t "$T/g.oxt" -o "$T/g.c" && drive "$T/g.c" "$T/g.oxt"
    expect 0 "$EXP" -t "$T/g.oxt" -f c-small -o "$T/g.c" && drive "$T/g.c" "$T/g.oxt" small
done
expect 1 "$EXP" -t "$T/g.oxt" -f python -o "$T/x.json" && has err "is tic-tac-toe's"

# A model's greedy policy: the exported move is always one of the model's best.
drive "$T/q.c" "$SRC/data/q.oxm" small
# n-tuple networks joined by '+' export the moves of their mean, as liboxo's oxo_open and
# oxo-play --model play them; the export of one network alone is another player.
expect 0 "$BUILD/oxo-train" --algo ntuple --episodes 3000 --tuples 6 --tuple-len 4 --seed 1 -q -o "$T/n1.oxm"
expect 0 "$BUILD/oxo-train" --algo ntuple --episodes 3000 --tuples 6 --tuple-len 4 --seed 2 -q -o "$T/n2.oxm"
expect 0 "$EXP" -m "$T/n1.oxm+$T/n2.oxm" -o "$T/nn.c" && drive "$T/nn.c" "$T/n1.oxm+$T/n2.oxm" small
expect 1 "$T/driver" "$T/n1.oxm" && has out "DISAGREE"
expect 2 "$EXP" -m "$T/n1.oxm+$T/n2.oxm" -o "$T/n2.oxm" && has err "would overwrite the input file"
expect 1 "$EXP" -m "$T/n1.oxm+$SRC/data/q.oxm" -o "$T/x" && has err "only networks are joined"

# A network exported as itself (--form c): every move's value bit for bit, the best moves and the
# moves picked at each level, as liboxo's, along random games: tic-tac-toe (8 symmetries, so twin
# moves), connect4:4,4 and the shipped 7x6 network, which the small form cannot hold; another
# network's values disagree.
expect 0 "$EXP" -m "$T/n1.oxm" -f c -o "$T/n1.c" --json && has out '"weights":'
drive "$T/n1.c" "$T/n1.oxm" net 3000 && has out "not finished"
expect 1 "$T/driver" "$T/n2.oxm" 50 && has out "DISAGREE"
expect 0 "$GEN" --game connect4:4,4 -o "$T/c44.oxt"
expect 0 "$BUILD/oxo-train" --algo ntuple --game connect4:4,4 -t "$T/c44.oxt" --episodes 3000 --tuples 8 --tuple-len 5 \
    --seed 1 -q -o "$T/c44.oxm"
expect 0 "$EXP" -m "$T/c44.oxm" -f c -o "$T/c44.c" && drive "$T/c44.c" "$T/c44.oxm" net 2000
drive "$T/c76.c" "$C76" net 200
expect 0 cc -std=c11 -Os -Wall -Wextra -Werror -pedantic -ffreestanding -nostdlib -c "$T/c76.c" -o "$T/c76.o"
ok "the exported 7x6 network needs no symbol from outside" sh -c "[ -z \"\$(nm -u '$T/c76.o')\" ]"
c76=$(size "$T/c76.o" | awk 'NR == 2 { print $1 + $2 }')
echo "the shipped 7x6 network exported, x86-64 -Os: $c76 bytes (text + data)"
quotes lookup/SHIPPING.md "(x86-64, gcc \`-Os\`: $(echo "$c76" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') bytes)"
expect 2 "$EXP" -m "$T/n1.oxm+$T/n2.oxm" -f c -o "$T/x" && has err "one n-tuple network, a NEAT model or an azero network"

# A NEAT model's champion exported as itself: its scores bit for bit, the best moves and the moves
# at each level, as liboxo's (through the same neat.c), on tic-tac-toe and connect4:4,4; another
# champion's scores disagree; it builds freestanding. A few generations make networks with hidden
# nodes (add-node in 3% of offspring), disabled links and ties at 0 (outputs nothing enters).
expect 0 "$BUILD/oxo-train" --algo neat --episodes 40 --population 60 --positions 500 --seed 1 -q -o "$T/ne1.oxm"
expect 0 "$BUILD/oxo-train" --algo neat --episodes 40 --population 60 --positions 500 --seed 2 -q -o "$T/ne2.oxm"
expect 0 "$EXP" -m "$T/ne1.oxm" -f c -o "$T/ne1.c" --json && has out '"weights":'
drive "$T/ne1.c" "$T/ne1.oxm" net 3000 && has out "not finished"
expect 1 "$T/driver" "$T/ne2.oxm" 50 && has out "DISAGREE"
expect 0 cc -std=c11 -Os -Wall -Wextra -Werror -pedantic -ffreestanding -nostdlib -c "$T/ne1.c" -o "$T/ne1.o"
ok "the exported NEAT player needs no symbol from outside" sh -c "[ -z \"\$(nm -u '$T/ne1.o')\" ]"
expect 0 "$BUILD/oxo-train" --algo neat --game connect4:4,4 -t "$T/c44.oxt" --episodes 10 --population 40 \
    --positions 300 --seed 1 -q -o "$T/nec44.oxm"
expect 0 "$EXP" -m "$T/nec44.oxm" -f c -o "$T/nec44.c" && drive "$T/nec44.c" "$T/nec44.oxm" net 1000
# Those networks see each board in its orientation (the default); one run --no-symmetry sees the
# board as it is, and its export agrees as well.
expect 0 "$PLAY" -i "$T/ne1.oxm" --json && has out '"oriented":true' && has out '"symmetric":true'
ok "the exported player orients the inputs" grep -q "NEAT_NSYM 8" "$T/ne1.c"
expect 0 "$BUILD/oxo-train" --algo neat --episodes 40 --population 60 --positions 500 --seed 3 --no-symmetry \
    -q -o "$T/ne3.oxm"
expect 0 "$PLAY" -i "$T/ne3.oxm" && has out "sigmoid(4.9x)"
ok "a plain network says nothing of orienting" sh -c "! grep -q oriented '$T/out'"
expect 0 "$EXP" -m "$T/ne3.oxm" -f c -o "$T/ne3.c" && drive "$T/ne3.c" "$T/ne3.oxm" net 3000
ok "the exported player of a plain network does not orient" grep -q "NEAT_NSYM 0" "$T/ne3.c"
# Networks of the tactics' inputs (win, block, let win: three a move) read the board's lines and,
# on connect4:4,4, its gravity; oriented, and on the board as it is; the exports agree too.
expect 0 "$BUILD/oxo-train" --algo neat --inputs tactics --episodes 30 --population 60 --positions 500 \
    --seed 4 -q -o "$T/ne4.oxm"
expect 0 "$PLAY" -i "$T/ne4.oxm" --json && has out '"inputs":"tactics"'
expect 0 "$EXP" -m "$T/ne4.oxm" -f c -o "$T/ne4.c" && drive "$T/ne4.c" "$T/ne4.oxm" net 3000
ok "the exported player reads the tactics" grep -q "NEAT_TACTICS 1" "$T/ne4.c"
expect 0 "$BUILD/oxo-train" --algo neat --inputs tactics --game connect4:4,4 -t "$T/c44.oxt" --episodes 10 \
    --population 40 --positions 300 --seed 2 --no-symmetry -q -o "$T/ne5.oxm"
expect 0 "$EXP" -m "$T/ne5.oxm" -f c -o "$T/ne5.c" && drive "$T/ne5.c" "$T/ne5.oxm" net 1000
# Networks of afterstates (one output scoring each move's board after it, with its tactics):
# oriented on tic-tac-toe, as they are on connect4:4,4; the exports agree, and build freestanding.
expect 0 "$BUILD/oxo-train" --algo neat --inputs afterstate --episodes 30 --population 60 --positions 500 \
    --seed 5 -q -o "$T/ne6.oxm"
expect 0 "$PLAY" -i "$T/ne6.oxm" --json && has out '"inputs":"afterstate"'
expect 0 "$EXP" -m "$T/ne6.oxm" -f c -o "$T/ne6.c" && drive "$T/ne6.c" "$T/ne6.oxm" net 3000
ok "the exported player scores afterstates" grep -q "NEAT_AFTERSTATE 1" "$T/ne6.c"
expect 0 cc -std=c11 -Os -Wall -Wextra -Werror -pedantic -ffreestanding -nostdlib -c "$T/ne6.c" -o "$T/ne6.o"
expect 0 "$BUILD/oxo-train" --algo neat --inputs afterstate --game connect4:4,4 -t "$T/c44.oxt" --episodes 10 \
    --population 40 --positions 300 --seed 2 --no-symmetry -q -o "$T/ne7.oxm"
expect 0 "$EXP" -m "$T/ne7.oxm" -f c -o "$T/ne7.c" && drive "$T/ne7.c" "$T/ne7.oxm" net 1000

# An AlphaZero-lite network exported as itself: the scores of its bare policy bit for bit, the best
# moves and the moves at each level, as liboxo's (through the same azero.c); another network's
# disagree; it builds freestanding; connect4:4,4 too (threats that gravity keeps from being played
# yet); and networks of the lines alone and of the cells alone. The networks read the lines and
# the threats (the default) with 24 units, so that the first layer's sums run over a block of 16
# units and a shorter one.
az="--algo azero --games 8 --simulations 16 --width 24 -q"
expect 0 "$BUILD/oxo-train" $az --episodes 6 --seed 1 -o "$T/az1.oxm"
expect 0 "$BUILD/oxo-train" $az --episodes 6 --seed 2 -o "$T/az2.oxm"
expect 0 "$EXP" -m "$T/az1.oxm" -f c -o "$T/az1.c" --json && has out '"weights":'
drive "$T/az1.c" "$T/az1.oxm" net 3000 && has out "not finished"
ok "the exported network reads tic-tac-toe's 8 lines of 3" grep -q "AZ_LINES 8" "$T/az1.c"
ok "and the threats" grep -q "AZ_THREATS 1" "$T/az1.c"
expect 1 "$T/driver" "$T/az2.oxm" 50 && has out "DISAGREE"
expect 0 cc -std=c11 -Os -Wall -Wextra -Werror -pedantic -ffreestanding -nostdlib -c "$T/az1.c" -o "$T/az1.o"
ok "the exported azero player needs no symbol from outside" sh -c "[ -z \"\$(nm -u '$T/az1.o')\" ]"
expect 0 "$BUILD/oxo-train" $az --game connect4:4,4 -t "$T/c44.oxt" --episodes 3 --seed 1 -o "$T/azc44.oxm"
expect 0 "$EXP" -m "$T/azc44.oxm" -f c -o "$T/azc44.c" && drive "$T/azc44.c" "$T/azc44.oxm" net 1000
expect 0 "$BUILD/oxo-train" $az --inputs lines --episodes 6 --seed 1 -o "$T/azl.oxm"
expect 0 "$EXP" -m "$T/azl.oxm" -f c -o "$T/azl.c" && drive "$T/azl.c" "$T/azl.oxm" net 3000
ok "a network of the lines alone reads no threat" grep -q "AZ_THREATS 0" "$T/azl.c"
expect 0 "$BUILD/oxo-train" $az --inputs cells --episodes 6 --seed 1 -o "$T/az0.oxm"
expect 0 "$EXP" -m "$T/az0.oxm" -f c -o "$T/az0.c" && drive "$T/az0.c" "$T/az0.oxm" net 3000
ok "a network of the cells alone reads no line" grep -q "AZ_LINES 0" "$T/az0.c"

# The JSON exports, read by players written to their layouts, against the table player's moves.
expect 0 "$EXP" -f python -o "$T/py.json" && expect 0 "$EXP" -f qtable -o "$T/q.json"
jq -r 'keys[]' "$T/py.json" | sed 's/.$//' | tr '_' '.' | sort -u >"$T/boards"
ok "the python export holds every reachable position (5,478)" test "$(wc -l <"$T/boards")" -eq 5478
IN="$T/boards" expect 0 "$PLAY" --batch --json
paste "$T/boards" "$T/out" | jq -R -n '[inputs | split("\t") | {(.[0]): (.[1] | fromjson | .best)}] | add' >"$T/moves.json"
expect 0 python3 "$SRC/tests/export/python_player.py" "$T/py.json" "$T/moves.json" && has out "0 lost"
expect 0 node "$SRC/tests/export/qtable_player.js" "$T/q.json" "$T/moves.json" && has out "0 lost"
# The readers can fail: values for the wrong side lose games.
jq 'map_values(-.)' "$T/py.json" >"$T/py-wrong.json"
expect 1 python3 "$SRC/tests/export/python_player.py" "$T/py-wrong.json" "$T/moves.json"
jq '.q |= map([.[0], (.[1] | map(-.))])' "$T/q.json" >"$T/q-wrong.json"
expect 1 node "$SRC/tests/export/qtable_player.js" "$T/q-wrong.json" "$T/moves.json"
expect 0 "$EXP" -m "$SRC/data/q.oxm" -f qtable -o "$T/qm.json" && has err "4520 records"
finish
