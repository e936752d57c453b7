#!/bin/sh
# make bench: every speed figure of the README, printed as Markdown.
set -e
B=${1:-build}
"$B/tests/oxo-bench" "$B/oxo-gen" "${OXO_SOURCE_DIR:-.}/data/tictactoe.oxt"
printf '\nBinary sizes (bytes, stripped copies):\n'
for p in oxo-play oxo-gen oxo-train; do
    cp "$B/$p" "$B/$p.stripped" && strip "$B/$p.stripped"
    printf '  %-10s %8s\n' "$p" "$(wc -c <"$B/$p.stripped")"
done
