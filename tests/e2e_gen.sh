#!/bin/sh
# oxo-gen as a user runs it: figures, the written table, exit codes, --json, bad arguments.
. "$(dirname "$0")/lib.sh"
GEN=$1
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}

expect 0 "$GEN" --json -n
has out '"nodes":549946,"games":255168,"x_wins":131184,"o_wins":77904,"draws":46080'
has out '{"game":"tictactoe","positions":5478,"terminal_positions":958,"canonical_positions":765,"canonical_nonterminal_positions":627,"root_value":"draw"'
has out '"positions_by_ply":[1,9,72,252,756,1260,1520,1140,390,78]'
empty err
# The same game by its m,n,k spec.
expect 0 "$GEN" --game mnk:3,3,3 --json -n
has out '{"game":"tictactoe","positions":5478,'

# Games chosen at run time, with their published figures (Connect-4: John Tromp's counts).
expect 0 "$GEN" --game connect4:4,4 --json -o "$T/c44.oxt"
has out '{"game":"connect4:4,4","positions":161029,'
has out '"root_value":"draw"'
expect 0 "$GEN" --game connect4:5,4 --json -n --no-tree
has out '"positions":3945711,'
has out '"root_value":"draw"'
expect 0 "$GEN" --game mnk:4,4,4 --json -n --no-tree
has out '{"game":"mnk:4,4,4","positions":9722011,"terminal_positions":659392,"canonical_positions":1217977,'
has out '"root_value":"draw"'
expect 0 "$GEN" --game mnk:3,4,3 --json -n
has out '{"game":"mnk:3,4,3",'
expect 0 "$GEN" --game mnk:4,3,4 --json -n
has out '"root_value":"draw"'
expect 2 "$GEN" --game go;                has err "unknown game 'go'; expected tictactoe (= mnk:3,3,3), mnk:W,H,K"
expect 2 "$GEN" --game mnk:9,9,5;         has err "out of range: W x H must be 1 to 64 cells"
expect 2 "$GEN" --game connect4:8,8;      has err "W x (H + 1) must be at most 64"
expect 2 "$GEN" --game mnk:3,3;           has err "expected mnk:W,H,K"
# Too large for memory: refused before any work, with the memory it would take.
expect 1 "$GEN" --game mnk:7,7,5 -n;      has err "too large to enumerate"
expect 1 "$GEN" --game connect4:7,6;      has err "would need about 12656.3 GB to solve a ply at a time"
has err "(about 4.54e+12 positions, 1904.5 GB of disk"
# The estimate draws boards in each ply and tests whether play reaches them: within 1% of the
# published counts of 6x6 and 7x5 (John Tromp's), which no machine here can solve, and of 5x4's.
within() { # within JSON KEY WANT: the JSON's KEY within 1% of WANT
    awk -v got="$(sed "s/.*\"$2\":\([0-9]*\).*/\1/" "$T/$1")" -v want="$3" \
        'BEGIN { d = got / want - 1; exit !(d < 0.01 && d > -0.01) }'
}
expect 0 "$GEN" --game connect4:6,6 --estimate --json; cp "$T/out" "$T/e66.json"
ok "6x6: about 69,173,028,785 positions" within e66.json positions 69173028785
expect 0 "$GEN" --game connect4:7,5 --estimate --json; cp "$T/out" "$T/e75.json"
ok "7x5: about 112,829,665,923 positions" within e75.json positions 112829665923
expect 0 "$GEN" --game connect4:5,4 --estimate --json; cp "$T/out" "$T/e54.json"
ok "5x4: about 3,945,711 positions" within e54.json positions 3945711
expect 0 "$GEN" --game connect4:6,6 --estimate
has out "memory             111.5 GB"
expect 1 "$GEN" --game mnk:4,4,4 --estimate; has err "has no ply index"
# --check-plies: the last plies solved alone, beside the estimate. Its counts are the solve's, ply
# by ply (every ply, with all of them checked); refusals before any work.
expect 0 "$GEN" --game connect4:5,4 --estimate --check-plies 21 --json
sed 's/.*"check":{[^[]*"positions_by_ply":\[\([0-9,]*\)\].*/\1/' "$T/out" > "$T/check.counts"
has out '"first_ply":0,'
expect 0 "$GEN" --game connect4:5,4 --by-ply -n --json
sed 's/.*"positions_by_ply":\[\([0-9,]*\)\].*/\1/' "$T/out" > "$T/solve.counts"
ok "check-plies counts every ply as the solve does" cmp "$T/check.counts" "$T/solve.counts"
has check.counts "1,5,25,95,"
expect 0 "$GEN" --game connect4:5,4 --estimate --check-plies 2
has out "the last 2 plies (19 to 20 stones) solved alone"
has out "memory held at most"
expect 2 "$GEN" --game connect4:5,4 --check-plies 2; has err "--check-plies goes with --estimate"
expect 2 "$GEN" --game connect4:5,4 --estimate --ranks 2 --check-plies 2; has err "--check-plies goes with --estimate"
expect 2 "$GEN" --game connect4:5,4 --estimate --check-plies 22; has err "connect4:5,4 has 21 plies"
expect 2 "$GEN" --game connect4:5,4 --estimate --check-plies 0; has err "--check-plies"
expect 1 "$GEN" --game connect4:7,6 --estimate --check-plies 3; has err "the last 3 plies of connect4:7,6 would need about"
expect 2 "$GEN" --game connect4:5,4 --estimate --book 3; has err "--by-ply and --estimate go with a whole game"
expect 2 "$GEN" --game connect4:5,4 --estimate -o "$T/e.oxt"; has err "--estimate writes nothing"
expect 1 test -e "$T/e.oxt"
# 6x5 is solved a ply at a time, its table in blocks; that table goes to a file, with its plies
# saved beside it: standard output is refused before any work.
expect 2 "$GEN" --game connect4:6,5 -o -; has err "its table goes to a file"
# A ply at a time (--by-ply) gives the figures of the bitmap of codes, every one.
expect 2 "$GEN" --game connect4:4,4 --by-ply -n --book 3; has err "--by-ply and --estimate go with a whole game"
expect 2 "$GEN" --game connect4:4,4 --by-ply -n --resume; has err "--resume goes with --book, or"
expect 0 "$GEN" --game connect4:5,4 --by-ply -n --json
sed 's/,"seconds".*//' "$T/out" > "$T/by-ply.json"
expect 0 "$GEN" --game connect4:5,4 --no-tree -n --json
sed 's/,"seconds".*//' "$T/out" > "$T/bitmap.json"
expect 0 cmp "$T/by-ply.json" "$T/bitmap.json"
has by-ply.json '"positions":3945711,'
# Its table (format 3, in blocks): the same bytes on 1 and 2 threads (a team for every ply), no ply file left, and the
# player answers from it as from the table of the bitmap of codes, position by position.
PLAY=$(dirname "$GEN")/oxo-play
expect 0 env OMP_NUM_THREADS=1 "$GEN" --game connect4:4,4 --by-ply -o "$T/p44.oxt" --json
has out '"root_value":"draw"'
expect 0 env OMP_NUM_THREADS=2 OXO_RETRO_PARALLEL_WORDS=1 "$GEN" --game connect4:4,4 --by-ply -o "$T/p44b.oxt"
expect 0 cmp "$T/p44.oxt" "$T/p44b.oxt"
expect 1 test -e "$T/p44.oxt.ply-0"
expect 0 "$PLAY" --info "$T/p44.oxt"
has out "format 3.0"
has out "80541 entries"
for pos in "" 1 23 2323 12341 334411 1223344 12132434 4141414 2211334; do
    "$PLAY" --game connect4:4,4 --table "$T/c44.oxt" --position "$pos" --json > "$T/a.json" 2>&1
    "$PLAY" --game connect4:4,4 --table "$T/p44.oxt" --position "$pos" --json > "$T/b.json" 2>&1
    expect 0 cmp "$T/a.json" "$T/b.json"
    has a.json '"distance":'
done
# A ply left by a killed run is taken up with --resume, and refused without it.
"$GEN" --game connect4:4,4 --by-ply -o "$T/p44c.oxt" -q >/dev/null
expect 0 cp "$T/p44b.oxt" "$T/p44c.oxt.ply-16"
expect 1 "$GEN" --game connect4:4,4 --by-ply -o "$T/p44c.oxt"
has err "p44c.oxt.ply-16 holds a ply of an interrupted run: take it up with --resume"
expect 1 "$GEN" --game connect4:4,4 --by-ply -o "$T/p44c.oxt" --resume
has err "p44c.oxt.ply-16 is not ply 16 of connect4:4,4 as this run writes it"

expect 0 "$GEN" -o "$T/t.oxt"
has out "tree nodes              549,946"
has out "wrote $T/t.oxt"
expect 0 cmp "$T/t.oxt" "$SRC/data/tictactoe.oxt"
# The default output name, in the current folder.
(cd "$T" && "$GEN" >/dev/null) && expect 0 cmp "$T/tictactoe.oxt" "$SRC/data/tictactoe.oxt"

expect 0 "$GEN" --help
has out "Usage: oxo-gen"
has out "(default: tictactoe.oxt, or the spec"
empty err
expect 0 "$GEN" --version
has out "oxo-gen 0."

expect 2 "$GEN" --bogus;            has err "unknown option '--bogus'"; empty out
expect 2 "$GEN" -o;                 has err "option -o needs a value"
expect 2 "$GEN" --output "";        has err "empty file name"
expect 2 "$GEN" extra;              has err "unexpected argument 'extra'"
expect 2 "$GEN" --position X........; has err "--position goes with --search"
expect 1 "$GEN" -o /nonexistent/dir/t.oxt; has err "cannot create a file in /nonexistent/dir"
mkdir "$T/d"
expect 1 "$GEN" -o "$T/d";          has err "is a directory"
if [ -w /dev/full ]; then
    checks=$((checks + 1))
    if "$GEN" -n >/dev/full 2>"$T/err"; then echo "FAIL: writing to /dev/full succeeded"; fails=$((fails + 1)); fi
    has err "error writing output"
fi

# Search solvers.
expect 0 "$GEN" --search memo --position X...O...X --json
has out '"variant":"memo","value":"draw","distance":6,"best":[1,3,5,7]'
expect 0 "$GEN" --search minimax --json
has out '"nodes":549945'
expect 0 "$GEN" --search alphabeta-ordered --position XX.OO....
has out "win in 1, best cells (0-8): 2"
expect 0 "$GEN" --game connect4:4,4 --search memo --position 121212 --json
has out '"value":"win","distance":1,"best":[0]'
expect 2 "$GEN" --game connect4:4,4 --search memo --position 11111; has err "move 5 plays column 1, which is full"
# The Connect-4 solver: scores in the convention of Connect-4 solvers (test_c4solve checks them
# against the exact tables).
expect 0 "$GEN" --game connect4:4,4 --search solve --json
has out '{"score":0,"scores":[0,0,0,0],"value":"draw","distance":16,"best":[0,1,2,3],"weak":false,'
expect 0 "$GEN" --game connect4:4,4 --search solve --position 121212 --json
has out '"value":"win","distance":1,"best":[0]'
expect 0 "$GEN" --game connect4:5,4 --search solve --position 33 --weak --json
has out '"distance":null'
expect 0 "$GEN" --game connect4:4,4 --search solve --position 1111
has out "- "
expect 2 "$GEN" --search solve;                      has err "is not Connect-4"
expect 2 "$GEN" --weak;                              has err "--weak and --tt-mb go with --search solve"
expect 2 "$GEN" --game connect4:4,4 --search solve --position 1212121; has err "the game is over"
expect 2 "$GEN" --search quick;     has err "unknown variant 'quick'"
expect 2 "$GEN" --search memo --position XXX......; has err "X must have as many stones as O or one more"
# -o - is standard output, as in oxo-export (it made a file named '-'): the table's bytes on a pipe,
# the figures on stderr; a book (checkpoints beside it) and a model (oxo-train) refuse it by name.
TRAIN=$(dirname "$GEN")/oxo-train
cd "$T" || exit 1
"$GEN" -o - 2>"$T/err" | cat >"$T/piped.oxt"
has err "wrote standard output"
expect 0 "$GEN" -o "$T/named.oxt"
ok "the table on standard output is the file's bytes" cmp -s "$T/piped.oxt" "$T/named.oxt"
expect 2 "$GEN" --game connect4:4,4 --book 2 -o -; has err "a book, with its checkpoints beside it, goes to a file"
expect 2 "$TRAIN" -o -; has err "a model goes to a file"
ok "no file named '-' was made" test ! -e "$T/-"
cd - >/dev/null || exit 1
finish
