#!/bin/sh
# Regenerates the shipped data from the programs of a build folder: the solved table and the
# default model of each algorithm (plain runs: default settings, seed 1). `make data` runs it;
# tests/e2e_data.sh checks that the committed files are exactly what it makes.
#   data/make.sh BUILD_DIR [OUT_DIR]
set -eu
build=$1
out=${2:-$(dirname "$0")}
"$build/oxo-gen" -o "$out/tictactoe.oxt" >/dev/null
"$build/oxo-train" --algo q --table "$out/tictactoe.oxt" --quiet -o "$out/q.oxm" >/dev/null
"$build/oxo-train" --algo td --table "$out/tictactoe.oxt" --quiet -o "$out/td.oxm" >/dev/null
echo "wrote $out/tictactoe.oxt $out/q.oxm $out/td.oxm"
