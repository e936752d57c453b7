#!/bin/sh
# The shipped data is reproducible: data/make.sh, run from this build, makes the same bytes.
. "$(dirname "$0")/lib.sh"
BUILD=$1
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}
expect 0 sh "$SRC/data/make.sh" "$BUILD" "$T"
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
finish
