#!/bin/sh
# The installed oxo, used the way its users would: `cmake --install` into a temporary prefix, an
# outside program built against it once through pkg-config and once through find_package(oxo)
# (shared and static), playing whole games; the installed oxo-play finding its data relative to
# itself after the whole tree is moved; a manual page for every program; only oxo.h exported.
# Usage: e2e_install.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
BUILD=$1 SRC=$2
P=$T/prefix
expect 0 cmake --install "$BUILD" --prefix "$P"
for f in include/oxo/oxo.h lib/pkgconfig/oxo.pc lib/cmake/oxo/oxoConfig.cmake lib/liboxo.a \
         share/oxo/tictactoe.oxt share/oxo/connect4-7-6-ntuple-plain.oxm share/oxo/connect4-7-6-ntuple-plain-2.oxm \
         share/oxo/connect4-7-6-ntuple-plain-3.oxm share/oxo/connect4-7-6-ntuple.oxm share/oxo/connect4-7-6-azero.oxm share/oxo/connect4-7-6-neat.oxm share/oxo/connect4-7-6.judge \
         share/oxo/connect4-7-6-book.oxt share/oxo/connect4-6-5-book.oxt \
         bin/oxo-play bin/oxo-gen bin/oxo-train; do
    checks=$((checks + 1))
    [ -e "$P/$f" ] || { echo "FAIL: $f not installed"; fails=$((fails + 1)); }
done
so=$(ls "$P"/lib/liboxo.so.* 2>/dev/null | head -1)
ok "the shared library is installed" test -n "$so"

# Only the public interface leaves the shared library.
nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort >"$T/exported"
sed -n 's/^OXO_API [^(]*[ *]\(oxo_[a-z_]*\)(.*/\1/p' "$SRC/lookup/include/oxo/oxo.h" | sort >"$T/declared"
ok "the shared library exports exactly the functions of oxo.h" cmp -s "$T/exported" "$T/declared"
ok "oxo.h declares functions" test -s "$T/declared"

# Through pkg-config, shared and static.
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
expect 0 pkg-config --modversion oxo && has out "0.1.0"
expect 0 sh -c "cc -std=c11 -Wall -Werror -o '$T/pc_shared' '$SRC/tests/install/play_game.c' \$(pkg-config --cflags --libs oxo)"
expect 0 env LD_LIBRARY_PATH="$P/lib" "$T/pc_shared" "$P/share/oxo/tictactoe.oxt" && has out "0 lost to random"
expect 0 sh -c "cc -std=c11 -Wall -Werror -static-libgcc -o '$T/pc_static' '$SRC/tests/install/play_game.c' -Wl,-Bstatic \$(pkg-config --cflags --libs-only-L oxo) -loxo -Wl,-Bdynamic \$(pkg-config --static --libs-only-l oxo | sed 's/-loxo//')"
expect 0 "$T/pc_static" "$P/share/oxo/tictactoe.oxt" && has out "20 draws"
ok "the static build does not need liboxo.so" sh -c "! ldd '$T/pc_static' | grep -q liboxo"

# The tiny player (tests/tiny/oxo-tiny.c): a lookup-only program on the static liboxo. It links no
# search (the solver, the agents) and no writer, plays by lookup, and its stripped size (zstd and
# msgpack-c are the system's shared libraries) stays under a bound that make bench also prints
# (OXO_TINY_BOUND: tests/CMakeLists.txt raises it for a Release build, whose -O3 inlines more).
TINY_BOUND=${OXO_TINY_BOUND:-170000}
expect 0 sh -c "cc -std=c11 -Os -Wall -Werror -Wl,--gc-sections -o '$T/tiny' '$SRC/tests/tiny/oxo-tiny.c' -Wl,-Bstatic \$(pkg-config --cflags --libs-only-L oxo) -loxo -Wl,-Bdynamic \$(pkg-config --static --libs-only-l oxo | sed 's/-loxo//')"
ok "the tiny player holds no search" sh -c "! nm '$T/tiny' | grep -Eq 'c4solve|alphabeta|mcts|puct|oxo_agent'"
ok "the tiny player holds no writer" sh -c "! nm '$T/tiny' | grep -Eq 'oxo_atomic_write|ZSTD_compress|msgpack_pack'"
strip "$T/tiny"
tiny=$(wc -c <"$T/tiny")
echo "tiny player: $tiny bytes stripped"
ok "the tiny player is $tiny bytes stripped (bound $TINY_BOUND)" test "$tiny" -le "$TINY_BOUND"
expect 0 "$T/tiny" "$P/share/oxo/tictactoe.oxt" XX.OO....; has out "3"
expect 0 "$T/tiny" "$P/share/oxo/connect4-7-6-ntuple.oxm" 4444; has out ""
expect 1 "$T/tiny" "$P/share/oxo/tictactoe.oxt" XXX; has err "oxo-tiny: "

# Through find_package(oxo).
expect 0 cmake -S "$SRC/tests/install" -B "$T/outside" -DCMAKE_PREFIX_PATH="$P"
expect 0 cmake --build "$T/outside"
expect 0 env LD_LIBRARY_PATH="$P/lib" "$T/outside/play_game" "$P/share/oxo/tictactoe.oxt" && has out "60 games"
expect 0 "$T/outside/play_game_static" "$P/share/oxo/tictactoe.oxt" && has out "0 lost to random"
# The three shipped networks joined by '+' through the library, as oxo-play joins them.
NETS="$P/share/oxo/connect4-7-6-ntuple-plain.oxm $P/share/oxo/connect4-7-6-ntuple-plain-2.oxm $P/share/oxo/connect4-7-6-ntuple-plain-3.oxm"
expect 0 env LD_LIBRARY_PATH="$P/lib" "$T/outside/play_game" "$P/share/oxo/tictactoe.oxt" $NETS && has out "3 networks joined: 12 plies"
has out "3 networks joined from memory: 12 plies, the same scores as from their files"

# The installed programs find their data beside themselves, after the tree is moved too, and never
# fall back to the build or source tree.
mv "$P" "$T/moved"
expect 0 env -u OXO_DATA_DIR "$T/moved/bin/oxo-play" --position X........ --json && has out '"value":"draw"'
# Connect-4 7x6: the installed player finds the shipped network, the trainer the judged set.
IN="$T/c4moves"; printf '4\n4\n' >"$IN"
expect 1 env -u OXO_DATA_DIR "$T/moved/bin/oxo-play" --game connect4 --no-book --budget-ms 50 --seed 1 && has out "chosen by the value model"
IN=/dev/null
expect 0 env -u OXO_DATA_DIR "$T/moved/bin/oxo-train" --algo ntuple --game connect4 --tuples 5 --tuple-len 4 --episodes 200 \
    -o "$T/c4.oxm" --json && has out "moved/bin/../share/oxo/connect4-7-6.judge"
# liboxo finds a bare name as the programs do: in $OXO_DATA_DIR, the current folder, then beside
# itself (lib/../share/oxo), wherever the tree was moved.
mkdir -p "$T/elsewhere"
(cd "$T/elsewhere" && env -u OXO_DATA_DIR LD_LIBRARY_PATH="$T/moved/lib" "$T/outside/play_game" tictactoe.oxt) >"$T/out" 2>"$T/err"
ok "liboxo found tictactoe.oxt beside itself (exit $?)" grep -q "60 games" "$T/out"
cp "$T/moved/share/oxo/tictactoe.oxt" "$T/elsewhere/mine.oxt"
(cd / && env OXO_DATA_DIR="$T/elsewhere" LD_LIBRARY_PATH="$T/moved/lib" "$T/outside/play_game" mine.oxt) >"$T/out" 2>"$T/err"
ok "liboxo found mine.oxt in \$OXO_DATA_DIR" grep -q "60 games" "$T/out"
# The Python module, installed, loads the liboxo of its own prefix and finds the data beside it.
for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 || continue
    (cd "$T/elsewhere" && env -u OXO_DATA_DIR -u OXO_LIBRARY PYTHONPATH="$T/moved/share/oxo/python" "$py" -c '
import oxo, sys
p = oxo.Player("tictactoe.oxt")
print(p.spec, p.query("X...O....").value, oxo.library_version())') >"$T/out" 2>"$T/err"
    ok "the installed Python module ($py) did not play from the moved prefix: $(cat "$T/err" | tail -2)" \
        grep -q "^tictactoe draw 0.1.0" "$T/out"
    break
done
rm "$T/moved/share/oxo/tictactoe.oxt"
expect 1 env -u OXO_DATA_DIR "$T/moved/bin/oxo-play" --position X........ && has err "tictactoe.oxt was not found"

# A manual page for every program, listing every long option its --help lists, with examples,
# the environment it reads and its exit status; and liboxo's page, naming every function.
for prog in oxo-gen oxo-play oxo-train oxo-arena oxo-export; do
    page="$T/moved/share/man/man1/$prog.1"
    for sec in EXAMPLES ENVIRONMENT "EXIT STATUS" "SEE ALSO"; do
        ok "$prog.1 has no $sec section" grep -q "^\.SH $sec\$" "$page"
    done
    if command -v groff >/dev/null 2>&1; then
        groff -man -ww -z "$page" >"$T/warnings" 2>&1
        ok "groff warns about $prog.1: $(head -2 "$T/warnings")" test ! -s "$T/warnings"
    fi
done
page3="$T/moved/share/man/man3/liboxo.3"
ok "liboxo.3 is installed" test -s "$page3"
if command -v groff >/dev/null 2>&1; then
    groff -man -ww -z "$page3" >"$T/warnings" 2>&1
    ok "groff warns about liboxo.3: $(head -2 "$T/warnings")" test ! -s "$T/warnings"
fi
while read -r f; do
    checks=$((checks + 1))
    grep -qF -- "$f" "$page3" || { echo "FAIL: liboxo.3 does not name $f"; fails=$((fails + 1)); }
done <"$T/declared"
for prog in oxo-gen oxo-play oxo-train; do
    page="$T/moved/share/man/man1/$prog.1"
    ok "$prog.1 is installed" test -s "$page"
    checks=$((checks + 1))
    head -1 "$page" | grep -q "^\.TH $(echo "$prog" | tr a-z A-Z) 1" || { echo "FAIL: $prog.1 has no .TH line"; fails=$((fails + 1)); }
    "$T/moved/bin/$prog" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/opts"
    while read -r o; do
        checks=$((checks + 1))
        grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$page" || grep -qF -- "$o" "$page" || { echo "FAIL: $prog.1 lacks $o"; fails=$((fails + 1)); }
    done <"$T/opts"
done
finish
