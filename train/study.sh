#!/bin/sh
# The Connect-4 study in one command (issue 46; `make study`, `make study-quick`): trains each
# learned family with the same wall-clock budget over several seeds, grades every agent on a
# judged set (random, alpha-beta at two depths, MCTS at two budgets, each family's best network
# bare and under a search, the solver within a time budget), runs the round robin with
# Bradley-Terry Elo and bootstrap intervals, plays every agent against the perfect player as
# first and as second player, exports the networks, and prints one table.
#
# The families are the rows of FAMILIES below: a learner of oxo-train and what it needs (NEAT
# learns from a judged training set drawn with another seed than the grading set, since no table
# of 7x6 exists). Every step's output is kept in OUT: a study stopped (Ctrl-C, a reboot) and run
# again takes up its finished trainings and redoes only the rest; a training stopped by its budget
# saves its model (oxo-train saves on SIGINT).
#
# Usage: train/study.sh [--quick] [--seeds N] [--budget SECONDS] [--game SPEC] [--out DIR] [BUILD]
set -eu

usage() {
    cat <<EOF
Usage: train/study.sh [OPTION]... [BUILD]
Redo the Connect-4 study: train the learned families with the same wall-clock budget over
several seeds, grade every agent on a judged set, run the round robin (Bradley-Terry Elo with
95% intervals), play every agent against the perfect player, export the networks, print the table.

  --quick           a few minutes: 1 seed, 60 s a training, fewer games and smaller searches
  --seeds N         seeds a family (default: 5; quick: 1)
  --budget SECONDS  wall-clock time of each training (default: 900; quick: 60)
  --game SPEC       the game (default: connect4, 7x6)
  --out DIR         where everything goes (default: BUILD/study, or BUILD/study-quick)
  BUILD             the build folder with the programs (default: build)

Exit status: 0 done, 1 a step failed, 2 bad usage.
EOF
}

QUICK=0 SEEDS="" BUDGET="" GAME=connect4 OUT="" B=build
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1 ;;
    --seeds) SEEDS=${2:?--seeds N}; shift ;;
    --budget) BUDGET=${2:?--budget SECONDS}; shift ;;
    --game) GAME=${2:?--game SPEC}; shift ;;
    --out) OUT=${2:?--out DIR}; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "study.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) B=$1 ;;
    esac
    shift
done
case ${SEEDS:-1}${BUDGET:-1} in *[!0-9]*) echo "study.sh: --seeds and --budget take whole numbers" >&2; exit 2 ;; esac
for p in oxo-gen oxo-train oxo-play oxo-arena oxo-export; do
    [ -x "$B/$p" ] || { echo "study.sh: $B/$p not found: build first (make build)" >&2; exit 1; }
done
command -v jq >/dev/null || { echo "study.sh: jq is needed (apt-get install jq)" >&2; exit 1; }

# The two modes: the study's sizes, and the quick one's.
if [ "$QUICK" = 1 ]; then
    SEEDS=${SEEDS:-1} BUDGET=${BUDGET:-60} OUT=${OUT:-$B/study-quick}
    JUDGE_N=300 TRAIN_N=500 GAMES=2 PERFECT=4 BOOT=50 PUCT=50 MCTS="200 1000" AB="2 4" SOLVER_MS=20
else
    SEEDS=${SEEDS:-5} BUDGET=${BUDGET:-900} OUT=${OUT:-$B/study}
    JUDGE_N=1000 TRAIN_N=4096 GAMES=10 PERFECT=20 BOOT=200 PUCT=400 MCTS="1000 10000" AB="2 4" SOLVER_MS=100
fi
[ "$SEEDS" -ge 1 ] && [ "$BUDGET" -ge 1 ] || { echo "study.sh: --seeds and --budget must be 1 or more" >&2; exit 2; }
mkdir -p "$OUT"
step() { printf '== %s\n' "$*" >&2; }

# The judged sets: the grading set (seed 1: the full study's 1,000 positions of 7x6 are the shipped
# connect4-7-6.judge, bit for bit), and NEAT's training set (seed 2; positions of the grading set
# are left out by oxo-train).
if [ ! -s "$OUT/grade.judge" ]; then
    step "the grading set: $JUDGE_N positions of $GAME valued by the solver (seed 1)"
    "$B/oxo-gen" --game "$GAME" --judge-set "$JUDGE_N" --seed 1 -q -o "$OUT/grade.judge"
fi
if [ ! -s "$OUT/train.judge" ]; then
    step "NEAT's training set: $TRAIN_N positions (seed 2)"
    "$B/oxo-gen" --game "$GAME" --judge-set "$TRAIN_N" --seed 2 -q -o "$OUT/train.judge"
fi

# The learned families: NAME, the search the family plays under in the round robin (FILE its best
# model) and oxo-train's arguments past the common ones, separated by |.
FAMILIES="ntuple|puct:$PUCT:value=FILE|--algo ntuple --workers 2
neat|puct:$PUCT:value=FILE|--algo neat --inputs afterstate --train-set $OUT/train.judge
azero|azero:$PUCT:model=FILE|--algo azero"

# Each training: the budget, then Ctrl-C (oxo-train saves the model and grades it); its JSON
# summary beside the model. A training whose summary exists is not redone.
echo "$FAMILIES" | while IFS='|' read -r fam search args; do
    s=1
    while [ "$s" -le "$SEEDS" ]; do
        run="$OUT/$fam-$s"
        if [ ! -s "$run.json" ]; then
            step "training $fam, seed $s, $BUDGET s"
            # shellcheck disable=SC2086 # the family's arguments are words
            timeout -s INT "$BUDGET" "$B/oxo-train" $args --game "$GAME" --seed "$s" --episodes 1000000000 \
                --judge "$OUT/grade.judge" --perfect-games 0 -q --json -o "$run.oxm" >"$run.part" 2>"$run.err" ||
                [ $? = 124 ] || { echo "study.sh: training $fam seed $s failed:" >&2; cat "$run.err" >&2; exit 1; }
            [ -s "$run.part" ] && [ -s "$run.oxm" ] ||
                { echo "study.sh: training $fam seed $s ended without its model or summary:" >&2; cat "$run.err" >&2; exit 1; }
            mv "$run.part" "$run.json"
        fi
        s=$((s + 1))
    done
done

# Each family's best seed by its share of value-keeping moves on the grading set; exported to C.
best() {
    for f in "$OUT/$1"-[0-9]*.json; do jq -r '"\(.accuracy) \(.model)"' "$f"; done | sort -rn | head -1 | cut -d' ' -f2
}
AGENTS="random"
for d in $AB; do AGENTS="$AGENTS alphabeta:$d"; done
for n in $MCTS; do AGENTS="$AGENTS mcts:$n"; done
for line in $(echo "$FAMILIES" | cut -d'|' -f1,2); do
    fam=${line%%|*} search=${line#*|}
    m=$(best "$fam")
    cp "$m" "$OUT/$fam-best.oxm"
    "$B/oxo-export" -m "$OUT/$fam-best.oxm" -f c -n "$fam" -o "$OUT/$fam.c" 2>/dev/null
    AGENTS="$AGENTS $fam=model:$OUT/$fam-best.oxm $fam+search=$(echo "$search" | sed "s|FILE|$OUT/$fam-best.oxm|")"
done
AGENTS="$AGENTS solver=solver:$SOLVER_MS"

# The round robin, every move graded on the grading set.
step "the round robin: $(echo $AGENTS | wc -w) agents, $GAMES games a pair and colour, graded on the judged set"
set --
for a in $AGENTS; do set -- "$@" --agent "$a"; done
"$B/oxo-arena" --game "$GAME" "$@" --games "$GAMES" --judge "$OUT/grade.judge" --bootstrap "$BOOT" \
    --svg "$OUT/matrix.svg" --json >"$OUT/arena.json"

# Every agent against the perfect player (the solver with the game's book), as X and as O.
step "every agent against the perfect player, $PERFECT games a colour"
: >"$OUT/perfect.txt"
for a in $AGENTS; do
    spec=${a#*=}
    # the agent's wins, draws and losses as X, then as O
    x=$("$B/oxo-play" --game "$GAME" --self-play --agent "$spec" --versus-agent solver --games "$PERFECT" --seed 1 --json |
        tail -1 | jq -r '"\(.x_wins)-\(.draws)-\(.o_wins)"')
    o=$("$B/oxo-play" --game "$GAME" --self-play --agent solver --versus-agent "$spec" --games "$PERFECT" --seed 1 --json |
        tail -1 | jq -r '"\(.o_wins)-\(.draws)-\(.x_wins)"')
    echo "${a%%=*} $x $o" >>"$OUT/perfect.txt"
done

# The table: each agent as the arena names it (NAME=SPEC gives NAME), its Elo and share of
# value-keeping moves with their 95% intervals, its wins against the perfect player, and for the
# learned families what their training took.
{
    echo "| agent | Elo (95% interval) | value kept (95% interval) | vs perfect as X (won-drawn-lost) | as O | training |"
    echo "|---|---|---|---|---|---|"
    jq -r '.ratings[] | [.agent, .elo, .low, .high, .value_kept, .value_kept_low, .value_kept_high] | @tsv' "$OUT/arena.json" |
        while IFS="$(printf '\t')" read -r name elo lo hi v vl vh; do
            fam=${name%%+*}
            train="-"
            if [ -s "$OUT/$fam-1.json" ]; then
                eps=$(jq -s 'map(.episodes) | add / length | floor' "$OUT/$fam"-[0-9]*.json)
                train="$SEEDS x $BUDGET s (mean $eps episodes)"
            fi
            pf=$(awk -v n="$name" '$1 == n { print $2 " | " $3 }' "$OUT/perfect.txt")
            awk -v a="$name" -v e="$elo" -v l="$lo" -v h="$hi" -v v="$v" -v vl="$vl" -v vh="$vh" \
                -v p="${pf:--|-}" -v t="$train" 'BEGIN {
                    printf "| %s | %.0f (%.0f to %.0f) | %.1f%% (%.1f-%.1f%%) | %s | %s |\n",
                        a, e, l, h, 100 * v, 100 * vl, 100 * vh, p, t }'
        done
} >"$OUT/study.md"
cat "$OUT/study.md"
echo "the study's files: $OUT (arena.json, matrix.svg, perfect.txt, the models and their C exports)" >&2
