#!/bin/sh
# make bench: every speed figure of gen/RECORD.md (Performance) and of the README's headline
# table, printed as Markdown-ish lines. Each comparison runs
# both sides in the same run, one after the other, and reports medians and ratios: this machine is
# shared and its timings drift. OXO_BENCH_QUICK=1 skips connect4:6,4 (about 3 minutes).
set -e
B=${1:-build}
SRC=${OXO_SOURCE_DIR:-.}
W=$(mktemp -d /tmp/oxo-bench.XXXXXX)
trap 'rm -rf "$W"; [ -n "${y1:-}" ] && kill $y1 $y2 2>/dev/null; true' EXIT

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
secs() { # secs CMD...: wall seconds of one run of CMD (its output discarded)
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    awk "BEGIN{printf \"%.4f\n\", $e - $s}"
}
median_of() { # times N CMD...: the median of N runs
    n=$1; shift
    i=0; while [ $i -lt "$n" ]; do secs "$@"; i=$((i + 1)); done | median
}
ratio() { awk "BEGIN{printf \"%.2f\", $1 / $2}"; }
json() { sed -n "s/.*\"$2\":\\([0-9.]*\\).*/\\1/p" "$1"; }

"$B/tests/oxo-bench" "$B/oxo-gen" "$SRC/data/tictactoe.oxt"
printf '\nBinary sizes (bytes, stripped copies):\n'
for p in oxo-play oxo-gen oxo-train; do
    cp "$B/$p" "$W/$p" && strip "$W/$p"
    printf '  %-10s %8s\n' "$p" "$(wc -c <"$W/$p")"
done
# The tiny player: tests/tiny/oxo-tiny.c, lookup only, on the static liboxo (zstd and msgpack-c
# shared); e2e_install holds it under its bound (OXO_TINY_BOUND, 170,000 bytes).
if cc -std=c11 -Os -Wl,--gc-sections -o "$W/oxo-tiny" "$SRC/tests/tiny/oxo-tiny.c" \
    -I"$SRC/lookup/include" "$B/liboxo.a" -lzstd -lmsgpackc -lm 2>/dev/null && strip "$W/oxo-tiny"; then
    printf '  %-10s %8s (lookup only; bound 170000 in e2e_install)\n' oxo-tiny "$(wc -c <"$W/oxo-tiny")"
fi

# Training workers: 2 workers against 1 at the default --sync (a 50th of the run for several
# workers, 20,000 episodes here), at --sync 1000 and at --sync 100, for both
# learners, on an idle machine and with both cores kept busy by two other processes (idle OpenMP
# threads used to spin against the work, which made 2 workers 5 to 20 times slower than 1 there).
# Training throughput from --json (the grading at the end, the same for both, is left out).
eps() { "$@" --json | sed -n 's/.*"episodes_per_second":\([0-9]*\).*/\1/p'; }
printf '\nTraining workers (1,000,000 episodes, episodes per second of training, median of 5):\n'
for algo in q td; do
    for case in "idle, default --sync (20,000 here):" "idle, --sync 1000:1000" "idle, --sync 100:100" "both cores busy, default --sync:"; do
        label=${case%:*} sync=${case##*:}
        set -- ${sync:+--sync "$sync"}
        case $label in *busy*) yes >/dev/null & y1=$!; yes >/dev/null & y2=$! ;; esac
        e1=$(for i in 1 2 3 4 5; do eps "$B/oxo-train" --algo $algo --episodes 1000000 --workers 1 "$@" -o "$W/m.oxm" -q; done | median)
        e2=$(for i in 1 2 3 4 5; do eps "$B/oxo-train" --algo $algo --episodes 1000000 --workers 2 "$@" -o "$W/m.oxm" -q; done | median)
        case $label in *busy*) kill $y1 $y2; y1= ;; esac
        printf '  %-3s %-32s 1 worker %9s/s, 2 workers %9s/s: %sx\n' "$algo" "$label" "$e1" "$e2" "$(ratio "$e2" "$e1")"
    done
done

# n-tuple TD(lambda) on Connect-4 7x6: 2 workers against 1 over the issue's run, 1,000,000 games,
# with the defaults (140 tuples of 8 cells, replay) and with those of the release before (70
# tuples, GBG's, no replay), whose moves per second on one worker (one core) compare with GBG's
# published 14,000 (Java, one core, its machine); the two alternate, so that a slow spell of this
# shared machine falls on both (about 12 minutes); moves per second of the tabular learners beside
# it.
mps() { "$@" --json | sed -n 's/.*"moves_per_second":\([0-9]*\).*/\1/p'; }
printf '\nLearners, moves per second of training (median of 3):\n'
nt() { "$B/oxo-train" --algo ntuple --game connect4 --judge "$SRC/data/connect4-7-6.judge" --perfect-games 0 \
    -o "$W/n.oxm" -q "$@"; }
# alternate MEASURE 'ARGS A' 'ARGS B': nt with each set of arguments (split on spaces), three times
# in turn, so that a slow spell falls on both, one line a turn in $W/alt: MEASURE's fields for A,
# then for B; `col N` is the median of its field N.
alternate() {
    for i in 1 2 3; do
        echo "$($1 nt $2) $($1 nt $3)"
    done >"$W/alt"
}
col() { cut -d' ' -f"$1" "$W/alt" | median; }
# Both of a run's rates, "moves episodes" a second: 1 and 2 workers play different games (the
# model depends on the workers), so their moves differ in number, and the speed-up is the one of
# the run's time, episodes a second; moves a second is the throughput per core.
both() { "$@" --json | sed -n 's/.*"episodes_per_second":\([0-9]*\),"moves_per_second":\([0-9]*\).*/\2 \1/p'; }
# The two CPUs of this shared host are not always as fast as each other (a loop pinned to one has
# run at a third of its speed on the other), and two workers split a round's games evenly, so a
# round waits for the slower CPU: the same loop pinned to each CPU in turn, before and after the
# speed-up (the host changes), says what the CPUs allowed (not the caches, which the host's other
# tenants share too). `taskset` is util-linux's.
spin() { secs taskset -c "$1" awk 'BEGIN{for(i=0;i<2e7;i++)s+=i}'; }
cpus() {
    for i in 1 2 3; do
        echo "$(spin 0) $(spin 1)"
    done >"$W/alt"
    c0=$(col 1) c1=$(col 2)
    printf '  %s: a loop pinned to CPU 0 %.2f s, to CPU 1 %.2f s: the slower CPU at %s of the faster'"'"'s speed\n' \
        "$1" "$c0" "$c1" "$(awk "BEGIN{a = $c0; b = $c1; printf \"%.2f\", (a < b ? a / b : b / a)}")"
}
have_taskset=$(command -v taskset || true)
[ -z "$have_taskset" ] || cpus 'CPUs before'
alternate both '--episodes 1000000 --workers 1' '--episodes 1000000 --workers 2'
m1=$(col 1) e1=$(col 2) m2=$(col 3) e2=$(col 4)
printf '  ntuple connect4 7x6 (the defaults: --tuple-lines 1 --defend --average 0.3 --replay 2000 --tuples 140, 2 workers --sync 2000), 1,000,000 games: 1 worker %9s moves played/s (each learned twice: played, then replayed), %7s games/s; 2 workers %9s moves/s, %7s games/s: %sx faster\n' \
    "$m1" "$e1" "$m2" "$e2" "$(ratio "$e2" "$e1")"
[ -z "$have_taskset" ] || cpus 'CPUs after'
# The same without replay and with GBG's 70 tuples (--replay 0 --tuples 70, the defaults of the
# release before): a quarter of the work a game, the same rounds and merges; each move played is
# learned once by a network of GBG's size, as GBG's are, so its moves a second are the learner's
# speed against GBG's.
alternate both '--episodes 1000000 --workers 1 --replay 0 --tuples 70' '--episodes 1000000 --workers 2 --replay 0 --tuples 70'
m1=$(col 1) e1=$(col 2) m2=$(col 3) e2=$(col 4)
printf '  ntuple connect4 7x6, the defaults with --replay 0 --tuples 70 (the release before), 1,000,000 games: 1 worker %9s moves/s (%sx the published 14,000 per core), %7s games/s; 2 workers %9s moves/s, %7s games/s: %sx faster\n' \
    "$m1" "$(ratio "$m1" 14000)" "$e1" "$m2" "$e2" "$(ratio "$e2" "$e1")"
# The rounds of 2 workers: 2,000 games (the default) against the 1,000 of the releases before,
# half the merges of about a quarter of the weights each (train/RECORD.md, n-tuple networks).
alternate eps '--episodes 1000000 --workers 2 --sync 1000' '--episodes 1000000 --workers 2'
e1=$(col 1) e2=$(col 2)
printf '  ntuple connect4 7x6, 1,000,000 games, 2 workers: rounds of 1,000 games %7s games/s, of 2,000 (the default) %7s games/s: %sx\n' \
    "$e1" "$e2" "$(ratio "$e2" "$e1")"
# The second weight set (a set for each player, the default on Connect-4) against one shared set:
# twice the weights, the same number of them read a move (the plain learner, as first measured).
m0=$(for i in 1 2 3; do mps nt --episodes 200000 --workers 1 --tuple-lines 0 --no-defend --average 0 --replay 0 --tuples 70 --weight-sets 1; done | median)
m1=$(for i in 1 2 3; do mps nt --episodes 200000 --workers 1 --tuple-lines 0 --no-defend --average 0 --replay 0 --tuples 70; done | median)
printf '  ntuple connect4 7x6, plain (--tuple-lines 0 --no-defend --average 0 --replay 0 --tuples 70), 1 worker: one weight set %9s moves/s, a set a player %9s moves/s: %sx\n' \
    "$m0" "$m1" "$(ratio "$m1" "$m0")"
# The defaults (--tuple-lines 1 --defend --average 0.3 --replay 2000 --tuples 140, rounds of 2,000)
# against the plain learner over the issue's run: the defence's two plies, where the second player
# thinks itself lost, every game learned twice, by twice the tuples (alternating, median of 3;
# about 4 minutes).
alternate eps '--episodes 1000000 --workers 2 --tuple-lines 0 --no-defend --average 0 --sync 1000 --replay 0 --tuples 70' '--episodes 1000000 --workers 2'
e1=$(col 1) e2=$(col 2)
printf '  ntuple connect4 7x6, 1,000,000 games, 2 workers: plain (--tuple-lines 0 --no-defend --average 0 --sync 1000 --replay 0 --tuples 70) %7s games/s, the defaults %7s games/s: %sx the time\n' \
    "$e1" "$e2" "$(ratio "$e1" "$e2")"
# The search phase (--search-games) on 1 thread and on 2: the shipped network resumed at its
# 1,000,000 games for 1,000 games of puct:200, played in rounds of 50 over the weights as each round
# found them (alternating, median of 3; about a minute).
sp() {
    env OMP_NUM_THREADS="$1" "$B/oxo-train" --resume "$SRC/data/connect4-7-6-ntuple.oxm" --episodes 1000000 \
        --judge "$SRC/data/connect4-7-6.judge" --perfect-games 0 --search-games 1000 -o "$W/s.oxm" -q --json |
        sed -n 's/.*"search":{[^}]*"seconds":\([0-9.]*\).*/\1/p'
}
for i in 1 2 3; do echo "$(sp 1) $(sp 2)"; done >"$W/alt"
s1=$(col 1) s2=$(col 2)
printf '  ntuple connect4 7x6, a search phase of 1,000 games of puct:200: 1 thread %s s, 2 threads %s s: %sx faster\n' \
    "$s1" "$s2" "$(ratio "$s1" "$s2")"
for algo in q td; do
    m1=$(for i in 1 2 3; do mps "$B/oxo-train" --algo $algo --episodes 1000000 --workers 1 -o "$W/m.oxm" -q; done | median)
    m2=$(for i in 1 2 3; do mps "$B/oxo-train" --algo $algo --episodes 1000000 --workers 2 -o "$W/m.oxm" -q; done | median)
    printf '  %-6s tictactoe, 1,000,000 games: 1 worker %9s moves/s; 2 workers %9s moves/s: %sx\n' "$algo" "$m1" "$m2" "$(ratio "$m2" "$m1")"
done

# The Connect-4 solver on one hard position (the scores of all seven columns of 4444435, about 6 s
# on one thread) on 1 thread and on 2 sharing the transposition table (lazy SMP).
printf '\nConnect-4 7x6 solver on one position, 1 thread against 2 (lazy SMP, median of 3):\n'
s1=$(for i in 1 2 3; do OMP_NUM_THREADS=1 "$B/oxo-gen" --game connect4 --search solve --no-book --position 4444435 --json | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p'; done | median)
s2=$(for i in 1 2 3; do OMP_NUM_THREADS=2 "$B/oxo-gen" --game connect4 --search solve --no-book --position 4444435 --json | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p'; done | median)
printf '  4444435: 1 thread %.2f s, 2 threads %.2f s: %sx\n' "$s1" "$s2" "$(ratio "$s1" "$s2")"

# The empty 7x6 board, the exact scores of all seven first moves, by search alone (no book), on
# every core: the published scores are -2 -1 0 1 0 -1 -2; the goal is under 5 minutes here.
printf '\nConnect-4 7x6, the empty board by search (all 7 moves, no book, every core):\n'
"$B/oxo-gen" --game connect4 --search solve --no-book --position "" --json >"$W/empty.json"
printf '  scores %s (published: [-2,-1,0,1,0,-1,-2]), %s nodes, %s s on %s threads\n' \
    "$(sed -n 's/.*"scores":\(\[[^]]*\]\).*/\1/p' "$W/empty.json")" "$(json "$W/empty.json" nodes)" \
    "$(json "$W/empty.json" seconds)" "$(json "$W/empty.json" threads)"

# The Connect-4 solver on test sets built like the published ones (tests/bench.c, c4sets): up to
# 1,000 positions per set, 10 s for the end set, 40 s for the middle ones, 240 s for the beginning,
# each position also solved by the reference solver (tests/c4ref.c, the published method alone),
# so that the node counts compare on the same positions.
printf '\nConnect-4 7x6 solver, strong solving, sets of random-play positions (oxo-bench c4sets ... ref):\n'
"$B/tests/oxo-bench" c4sets 1000 10 40 240 ref

# The perfect player's move (the solver agent's pick): only the best moves' scores, each other
# move asked once whether it reaches the best, against every move's exact score, side by side.
printf '\nConnect-4 7x6 perfect player, one move (oxo-bench c4pick, judged-set positions):\n'
"$B/tests/oxo-bench" c4pick "$SRC/data/connect4-7-6.judge" 10 13 40
"$B/tests/oxo-bench" c4pick "$SRC/data/connect4-7-6.judge" 14 20 100

# A search over the shipped 7x6 networks (puct) against each network alone (the defaults' and the
# plain learner's), and the same over the shipped ensemble of three plain networks: what each costs
# a move and the share of the judged set's positions (10 stones and more) where the move keeps the
# value.
printf '\nAgents over the 7x6 network, one move (oxo-bench agents, judged-set positions):\n'
DEF="$SRC/data/connect4-7-6-ntuple.oxm"
NET="$SRC/data/connect4-7-6-ntuple-plain.oxm"
ENS="$NET+$SRC/data/connect4-7-6-ntuple-plain-2.oxm+$SRC/data/connect4-7-6-ntuple-plain-3.oxm"
"$B/tests/oxo-bench" agents connect4 "$SRC/data/connect4-7-6.judge" 1000 model:"$DEF" puct:1000:value="$DEF" \
    model:"$NET" puct:1000:value="$NET" puct:10000:2:value="$NET" model:"$ENS" puct:1000:value="$ENS"

# AlphaZero-lite's networks on 7x6 (oxo-train --algo azero): positions evaluated and trained a
# second on one core, their matrix products through OpenBLAS's cblas_sgemm against the plain C
# loops on the same network (oxo-bench-azero, medians of 3 alternating turns): the cells alone,
# then the default, which reads the lines too (its first layer sums rows, in neither).
printf '\nAlphaZero-lite network of the cells, OpenBLAS against plain loops (oxo-bench-azero):\n'
"$B/tests/oxo-bench-azero" connect4 256 2
printf '\nAlphaZero-lite network with lines (the default), OpenBLAS against plain loops:\n'
"$B/tests/oxo-bench-azero" connect4 256 2 1

# Opening books (oxo-gen --book): a whole book of connect4:6,5 to 10 stones on 1 thread and on 2
# (leaves solved per second per core), then the cost of 7x6 books projected from random samples
# of their leaves (--sample: mean solve time x leaves; a real run reuses its transposition tables
# across neighbouring leaves, so it costs less: 6x5 to 12 stones was projected at 1.9x its run).
printf '\nOpening books (oxo-gen --book):\n'
for t in 1 2; do
    OMP_NUM_THREADS=$t "$B/oxo-gen" --game connect4:6,5 --book 10 -o "$W/book$t.oxt" --json >"$W/book$t.json"
done
b1=$(json "$W/book1.json" seconds); b2=$(json "$W/book2.json" seconds)
printf '  connect4:6,5 to 10 stones (%s leaves): 1 thread %.1f s (%s leaves/s/core), 2 threads %.1f s (%s leaves/s/core): %sx\n' \
    "$(json "$W/book1.json" leaves)" "$b1" "$(json "$W/book1.json" leaves_per_second_per_core)" "$b2" \
    "$(json "$W/book2.json" leaves_per_second_per_core)" "$(ratio "$b1" "$b2")"
cmp -s "$W/book1.oxt" "$W/book2.oxt" || { echo "the book differs between 1 and 2 threads" >&2; exit 1; }
for ds in 12:400 10:200 8:60; do
    d=${ds%:*}; n=${ds#*:}
    "$B/oxo-gen" --game connect4 --book "$d" --sample "$n" --json >"$W/s.json"
    printf '  connect4:7,6 to %2s stones: %9s leaves, %s sampled: mean %s s, median %s s a leaf; projected %s core-hours\n' \
        "$d" "$(json "$W/s.json" leaves)" "$n" "$(json "$W/s.json" mean_seconds)" "$(json "$W/s.json" median_seconds)" \
        "$(json "$W/s.json" projected_core_hours)"
done

# Whole games: oxo-gen against a plain memoised solver (tests/baseline.c), whole processes.
printf '\nSolving whole games (whole process, wall seconds):\n'
tb=$(median_of 3 "$B/tests/oxo-baseline" mnk 4 4 4)
tg=$(median_of 3 "$B/oxo-gen" --game mnk:4,4,4 -o "$W/m444.oxt" -q)
"$B/oxo-gen" --game mnk:4,4,4 -o "$W/m444.oxt" -q --json >"$W/m444.json"
printf '  mnk:4,4,4       baseline (dense memo of 3^16) %7.2f s, oxo-gen %6.2f s (%s threads): %sx faster (median of 3)\n' \
    "$tb" "$tg" "$(json "$W/m444.json" threads)" "$(ratio "$tb" "$tg")"
if [ "${OXO_BENCH_QUICK:-0}" = 0 ]; then
    tb=$(secs "$B/tests/oxo-baseline" c4 6 4)
    OMP_NUM_THREADS=1 "$B/oxo-gen" --game connect4:6,4 -n -q --json >"$W/c64-1.json"
    s=$(date +%s.%N)
    OMP_NUM_THREADS=2 "$B/oxo-gen" --game connect4:6,4 -o "$W/c64.oxt" -q --json >"$W/c64.json"
    e=$(date +%s.%N)
    tw=$(awk "BEGIN{printf \"%.2f\", $e - $s}")
    t1=$(json "$W/c64-1.json" seconds) t2=$(json "$W/c64.json" seconds)
    printf '  connect4:6,4    baseline (hash memo) %7.2f s, oxo-gen %6.2f s whole process (2 threads): %sx faster\n' \
        "$tb" "$tw" "$(ratio "$tb" "$tw")"
    printf '  connect4:6,4    the solve on 1 thread %6.2f s, on 2 threads %6.2f s: %sx\n' "$t1" "$t2" "$(ratio "$t1" "$t2")"
    tp=$(secs "$B/oxo-gen" --game connect4:6,4 --by-ply -o "$W/p64.oxt" -q)
    printf '  connect4:6,4    baseline (hash memo) %7.2f s, a ply at a time %6.2f s whole process, table written (2 threads): %sx faster\n' \
        "$tb" "$tp" "$(ratio "$tb" "$tp")"
fi
# A ply at a time (--by-ply, gen/plies.c) against the bitmap of codes (gen/retro.c), the same
# figures (no tree), one after the other: the solve's seconds and the peak memory of each process.
# 5x5 only in a full bench; 6x5 (where the bitmap of codes does not fit: no baseline) only with
# OXO_BENCH_LONG=1 (about 3 minutes): its table written, 2,000 positions from 12 stones checked
# against the reference solver (tests/c4ref.c), and its lookups timed.
printf '\nA ply at a time against the bitmap of codes (oxo-gen -n --no-tree, 2 threads):\n'
specs="connect4:5,4"
[ "${OXO_BENCH_QUICK:-0}" = 0 ] && specs="$specs connect4:5,5"
[ "${OXO_BENCH_LONG:-0}" = 1 ] && specs="$specs connect4:6,5"
for spec in $specs; do
    if [ "$spec" = connect4:6,5 ]; then
        s=$(date +%s.%N)
        "$B/oxo-gen" --game "$spec" -o "$W/p65.oxt" -q --json >"$W/p.json"
        e=$(date +%s.%N)
        printf '  %-14s a ply at a time %8.2f s whole process, table written, peak %6.2f GB, %s positions, table %s bytes (no baseline)\n' "$spec" \
            "$(awk "BEGIN{printf \"%.2f\", $e - $s}")" "$(awk "BEGIN{print $(json "$W/p.json" peak_bytes) / 1e9}")" \
            "$(json "$W/p.json" positions)" "$(json "$W/p.json" bytes)"
        "$B/tests/oxo-bench" plycheck "$W/p65.oxt" 2000 12 | sed 's/^/  /'
        "$B/tests/oxo-bench" query "$W/p65.oxt" | sed 's/^/  lookups from the disk (a block read and decompressed each): /'
        rm -f "$W/p65.oxt"
        continue
    fi
    "$B/oxo-gen" --game "$spec" --by-ply -n -q --json >"$W/p.json"
    "$B/oxo-gen" --game "$spec" --no-tree -n -q --json >"$W/r.json"
    tp=$(json "$W/p.json" seconds) tr=$(json "$W/r.json" seconds)
    printf '  %-14s bitmap of codes %7.2f s, peak %6.1f MB; a ply at a time %7.2f s, peak %6.1f MB: %sx the time\n' "$spec" \
        "$tr" "$(awk "BEGIN{print $(json "$W/r.json" peak_bytes) / 1e6}")" \
        "$tp" "$(awk "BEGIN{print $(json "$W/p.json" peak_bytes) / 1e6}")" "$(ratio "$tp" "$tr")"
done
printf '\nPer game (oxo-gen on every core; peak memory from getrusage):\n'
for spec in tictactoe connect4:4,4 connect4:5,4 mnk:4,4,4 connect4:6,4; do
    f=$W/$(echo "$spec" | tr ':,' '--').oxt
    if [ "$spec" = connect4:6,4 ]; then # solved above, on 2 threads; skipped in a quick bench
        [ -f "$W/c64.json" ] || continue
        cp "$W/c64.json" "$W/g.json"
    else
        "$B/oxo-gen" --game "$spec" -o "$f" -q --json >"$W/g.json"
    fi
    pos=$(json "$W/g.json" positions) can=$(json "$W/g.json" canonical_positions)
    s=$(json "$W/g.json" seconds) peak=$(json "$W/g.json" peak_bytes) th=$(json "$W/g.json" threads)
    bytes=$(json "$W/g.json" bytes)
    awk -v spec="$spec" -v pos="$pos" -v can="$can" -v s="$s" -v peak="$peak" -v th="$th" -v bytes="$bytes" 'BEGIN {
        printf "  %-14s %12d positions %11d canonical  %7.3f s  %6.2f M positions/s/core  %5.1f bytes/position peak  table %10d bytes, %.2f per canonical position\n",
            spec, pos, can, s, pos / (s > 0 ? s : 1e-9) / th / 1e6, peak / pos, bytes, bytes / can }'
done

# Tables that open at once: the whole process of one query, 3x3 against 4x4.
printf '\nOpening a table and answering one query (oxo-play --position --json, whole process, median of 21):\n'
t3=$(median_of 21 "$B/oxo-play" --table "$SRC/data/tictactoe.oxt" -p ......... --json)
t4=$(median_of 21 "$B/oxo-play" --table "$W/m444.oxt" -p ................ --json)
printf '  tictactoe %.4f s, mnk:4,4,4 %.4f s: %sx\n' "$t3" "$t4" "$(ratio "$t4" "$t3")"
printf '\nOne query in process (4,096 positions drawn by random play, median of 9 rounds):\n'
for f in "$SRC/data/tictactoe.oxt" "$W/m444.oxt" "$W/connect4-4-4.oxt"; do
    [ -f "$f" ] && "$B/tests/oxo-bench" query "$f" | sed 's/^/  /'
done
true
