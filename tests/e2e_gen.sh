#!/bin/sh
# oxo-gen as a user runs it: figures, the written table, exit codes, --json, bad arguments.
. "$(dirname "$0")/lib.sh"
GEN=$1
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}

expect 0 "$GEN" --json -n
has out '"nodes":549946,"games":255168,"x_wins":131184,"o_wins":77904,"draws":46080'
has out '"positions":5478,"terminal_positions":958,"canonical_positions":765,"canonical_nonterminal_positions":627,"root_value":"draw"}'
empty err

expect 0 "$GEN" -o "$T/t.oxt"
has out "tree nodes        549,946"
has out "wrote $T/t.oxt"
expect 0 cmp "$T/t.oxt" "$SRC/data/tictactoe.oxt"
# The default output name, in the current folder.
(cd "$T" && "$GEN" >/dev/null) && expect 0 cmp "$T/tictactoe.oxt" "$SRC/data/tictactoe.oxt"

expect 0 "$GEN" --help
has out "Usage: oxo-gen"
has out "(default: tictactoe.oxt)"
empty err
expect 0 "$GEN" --version
has out "oxo-gen 0."

expect 2 "$GEN" --bogus;            has err "unknown option '--bogus'"; empty out
expect 2 "$GEN" -o;                 has err "option -o needs a value"
expect 2 "$GEN" --output "";        has err "empty file name"
expect 2 "$GEN" extra;              has err "unexpected argument 'extra'"
expect 2 "$GEN" --position X........; has err "--position goes with --search"
expect 1 "$GEN" -o /nonexistent/dir/t.oxt; has err "cannot create a temporary file beside /nonexistent/dir/t.oxt"
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
expect 2 "$GEN" --search quick;     has err "unknown variant 'quick'"
expect 2 "$GEN" --search memo --position XXX......; has err "X must have as many stones as O or one more"
finish
