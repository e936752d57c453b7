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

# Idle threads: 2 workers against 1 at the default --sync 100, on an idle machine and with both
# cores kept busy by two other processes (idle OpenMP threads used to spin against the work, which
# made 2 workers 5 to 20 times slower than 1 there). Medians of 5 runs, side by side.
median() { sort -n | sed -n 3p; }
secs() { # secs ARGS...: wall seconds of one oxo-train run
    s=$(date +%s.%N); "$B/oxo-train" "$@" -o "$B/bench-idle.oxm" -q >/dev/null; e=$(date +%s.%N)
    awk "BEGIN{print $e - $s}"
}
idle_row() { # idle_row LABEL
    for w in 1 2; do
        for i in 1 2 3 4 5; do secs --algo td --episodes 200000 --workers $w; done | median >"$B/bench-w$w"
    done
    printf '  %-28s 1 worker %6.3f s, 2 workers %6.3f s\n' "$1" "$(cat "$B/bench-w1")" "$(cat "$B/bench-w2")"
}
printf '\nIdle threads (td, 200,000 episodes, --sync 100, median of 5):\n'
idle_row "idle machine"
yes >/dev/null & y1=$!
yes >/dev/null & y2=$!
idle_row "both cores busy elsewhere"
kill $y1 $y2
rm -f "$B/bench-idle.oxm" "$B/bench-w1" "$B/bench-w2"
