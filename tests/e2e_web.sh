#!/bin/sh
# The web page (build/web) in headless Chromium, driven by playwright-core (tests/web): games by
# clicks, every tic-tac-toe position against oxo-play --batch, the 7x6 network's move values against
# oxo-play --model, hints, the winning line and the session's games, the page's learner against
# oxo-train (the same reports and model bytes), oxo-play and oxo-export, a screenshot kept in
# build/web/screenshot.png. make test installs Chromium (apt) and playwright-core (npm ci).
# Usage: e2e_web.sh BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
BUILD=$1 SRC=$2
for need in "$BUILD/web/tictactoe.wasm:the web page was not built (clang and lld: apt-get install clang lld)" \
            "$BUILD/web/learn.wasm:the page's learner was not built (wasi-libc and libclang-rt-14-dev-wasm32, and the zstd and msgpack-c sources: make deps; see cmake's output)" \
            "${OXO_CHROMIUM:-/usr/bin/chromium}:Chromium is not installed (apt-get install chromium, or make deps)" \
            "$SRC/tests/web/node_modules/playwright-core:playwright-core is not installed (make deps runs npm ci in tests/web)"; do
    if [ ! -e "${need%%:*}" ]; then
        echo "FAIL: ${need#*:}"
        exit 1
    fi
done
# Debian 12's Node.js is 18.20: the locked playwright-core must run on it (1.62 and later refuse
# Node 18 with "Playwright requires Node.js 20 or higher", which failed make test on a fresh machine).
need=$(jq -r '.packages["node_modules/playwright-core"].engines.node' "$SRC/tests/web/package-lock.json")
ok "the locked playwright-core needs Node $need, not what Debian 12 ships (18.20)" \
    sh -c 'case "$1" in ">=18"|">=18."*|">=16"*|">=14"*) ;; *) exit 1;; esac' - "$need"
expect 0 "$BUILD/oxo-export" -f python -o "$T/py.json"
jq -r 'keys[]' "$T/py.json" | sed 's/.$//' | tr '_' '.' | sort -u >"$T/boards"
IN="$T/boards" expect 0 "$BUILD/oxo-play" --batch --json
cp "$T/out" "$T/answers"
# The 7x6 network: the judged set's first 150 boards (10 stones and more) and a few openings.
printf '4\n44\n444444\n4444445\n' >"$T/boards76"
grep -v '^#' "$SRC/data/connect4-7-6.judge" | grep -v '^game' | head -150 | cut -d' ' -f1 >>"$T/boards76"
IN="$T/boards76" expect 0 "$BUILD/oxo-play" --model "$SRC/data/connect4-7-6-ntuple.oxm" --batch --json
cp "$T/out" "$T/answers76"
IN="$T/boards76" expect 0 "$BUILD/oxo-play" --model "$SRC/data/connect4-7-6-azero.oxm" --batch --json
cp "$T/out" "$T/answersaz"
IN="$T/boards76" expect 0 "$BUILD/oxo-play" --model "$SRC/data/connect4-7-6-neat.oxm" --batch --json
cp "$T/out" "$T/answersne"
# The page says how big NEAT's champion is: the shipped network's.
expect 0 "$BUILD/oxo-play" --info "$SRC/data/connect4-7-6-neat.oxm" --json
ne=$(jq -r '"\(.neat.champion.hidden) hidden nodes and \(.neat.champion.links) links"' "$T/out")
ok "the page does not say NEAT's champion has $ne" grep -q "<span id=\"neat-size\">$ne</span>" "$BUILD/web/index.html"
# The page's text says how big the network it plays is: the shipped network's, in millions.
expect 0 "$BUILD/oxo-play" --info "$SRC/data/connect4-7-6-ntuple.oxm" --json
m=$(jq -r '.values / 1e6 * 10 | round / 10' "$T/out")
ok "the page does not say the network holds $m million weights" grep -q "($m million weights)" "$BUILD/web/index.html"
# OXO_NODE: another Node.js to run it with (e.g. Debian 12's 18.20 where the machine has a newer one).
expect 0 "${OXO_NODE:-node}" "$SRC/tests/web/browser_test.js" "$BUILD/web" "$T/boards" "$T/answers" "$BUILD/web/screenshot.png" \
    "$T/boards76" "$T/answers76" "$BUILD" "$T" "$T/answersaz" "$T/answersne"
cat "$T/out"
has out "0 failed"
has out "compared with oxo-play --batch"
has out "compared with oxo-play --model"
has out "AlphaZero-lite network: the page's move values on"
has out "NEAT network: the page's move values on"
has out "3 of 3 runs in the page made the report and the model bytes of oxo-train"
finish
