#!/bin/sh
# Hostile command lines: every program and every option with a missing value, a wrong type,
# out-of-range numbers, unknown options, missing files, directories, full devices and file-size
# limits. Each must exit 2 (usage) or 1 (runtime) with a message on stderr, never crash.
. "$(dirname "$0")/lib.sh"
GEN=$1 PLAY=$2 TRAIN=$3
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}
TABLE=$SRC/data/tictactoe.oxt

# check CODE PROG ARGS...: exit code CODE, a message on stderr, and no crash.
check() {
    want=$1; shift
    expect "$want" "$@" || return
    checks=$((checks + 1))
    if [ ! -s "$T/err" ]; then echo "FAIL: '$*' printed no message on stderr"; fails=$((fails + 1)); fi
}

# Options that take a value, per program.
gen_opts="-o --output --search --position -g --game"
play_opts="-t --table -m --model --human -p --position -i --info -l --level -s --seed --versus --games
 --versus-level -g --game"
train_opts="-a --algo -e --episodes -s --seed -o --output -w --workers --sync -t --table --resume -g --game
 --checkpoint-every --alpha --alpha-end --alpha-schedule --alpha-length --epsilon --epsilon-end
 --epsilon-schedule --epsilon-length --gamma --lambda --trace --init --replay --replay-ratio
 --opponent --exploring-starts --exploring-depth --eval-every --curve --plot --sweep --strip"
for o in $gen_opts; do check 2 "$GEN" "$o"; has err "needs a value"; done
for o in $play_opts; do check 2 "$PLAY" "$o"; has err "needs a value"; done
for o in $train_opts; do check 2 "$TRAIN" "$o"; has err "needs a value"; done

# Numbers: not a number, negative, fractional where whole, beyond range, overflow, empty.
for v in abc -3 2.5 99999999999999999999999 "" " 7"; do
    for o in --level --seed --games; do check 2 "$PLAY" "$o" "$v" -p .........; done
    for o in --episodes --seed --workers --sync --checkpoint-every --alpha-length --epsilon-length --replay --eval-every; do
        check 2 "$TRAIN" "$o" "$v"
    done
done
for v in abc -0.5 1.5 nan inf 1e999 ""; do
    for o in --alpha --alpha-end --epsilon --epsilon-end --gamma --lambda --exploring-starts; do check 2 "$TRAIN" "$o" "$v"; done
done
check 2 "$TRAIN" --init 2;           has err "--init: '2' is not a number from -1 to 1"
check 2 "$TRAIN" --replay-ratio 65;  has err "--replay-ratio: '65'"
check 2 "$PLAY" --level 11 -p .........; has err "from 1 to 10"
check 2 "$TRAIN" --workers 4097;     has err "from 1 to 4096"

# Games out of their set, in every program.
for p in "$GEN" "$PLAY" "$TRAIN"; do
    check 2 "$p" --game chess;       has err "unknown game 'chess'"
    check 2 "$p" --game mnk:0,3,3;   has err "out of range"
    check 2 "$p" --game connect4:9,9; has err "must be at most 64"
    check 2 "$p" --game mnk:3,3,3,3; has err "expected mnk:W,H,K"
done
check 1 "$PLAY" --game connect4:4,4 --table "$TABLE" -p 1; has err "is a table of tictactoe, not of connect4:4,4"
check 1 "$TRAIN" --game connect4:4,4 --table "$TABLE" --episodes 10 -o "$T/m.oxm"; has err "is a table of tictactoe, not of connect4:4,4"

# Words out of their set.
check 2 "$GEN" --search fast;        has err "unknown variant"
check 2 "$PLAY" --human both;        has err "expected x or o"
check 2 "$TRAIN" --algo dqn;         has err "expected q, td, ntuple, neat or azero"
check 2 "$TRAIN" --trace dutch;      has err "expected accumulating or replacing"
check 2 "$TRAIN" --alpha-schedule step; has err "expected constant, linear or exponential"
check 2 "$TRAIN" --opponent self=x;  has err "--opponent: 'x'"
check 2 "$TRAIN" --sweep =1;         has err "expected KEY=V1,V2"
check 2 "$TRAIN" --sweep alpha=a,b;  has err "--alpha: 'a'"

# Unknown options and stray arguments.
for p in "$GEN" "$PLAY" "$TRAIN"; do
    check 2 "$p" --nope;  has err "unknown option '--nope'"
    check 2 "$p" -Z;      has err "unknown option"
    check 2 "$p" stray;   has err "unexpected argument 'stray'"
done
# An abbreviation that several options share is named as such, not as an unknown option.
check 2 "$PLAY" --ga connect4;  has err "option '--ga' is ambiguous; possibilities: --games --game"
check 2 "$TRAIN" --re 5;        has err "option '--re' is ambiguous; possibilities: --resume --replay --replay-ratio"
check 2 "$GEN" --json=1;        has err "unknown option '--json=1'"

# Files: missing, a directory, empty, not an oxo file, the wrong kind.
: >"$T/empty"
printf 'hello' >"$T/text"
for f in "$T/missing" "$T" "$T/empty" "$T/text"; do
    check 1 "$PLAY" --table "$f" -p .........
    check 1 "$PLAY" --info "$f"
    check 1 "$TRAIN" --table "$f" --episodes 10 -o "$T/m.oxm"
    check 1 "$TRAIN" --resume "$f" -o "$T/m.oxm"
done
check 1 "$PLAY" --self-play --versus "$T/missing"; has err "cannot open"
check 2 "$PLAY" --table "$SRC/data/q.oxm" -p .........; has err "is a model; use --model"
# Outputs that cannot be written.
check 1 "$GEN" -o "$T";                       has err "is a directory"
check 1 "$TRAIN" --episodes 10 -o "$T";       has err "is a directory"
check 1 "$TRAIN" --episodes 10 -o "$T/m.oxm" --curve "$T/no/c.csv"; has err "cannot write $T/no/c.csv"
if [ -w /dev/full ]; then
    for cmd in "$GEN -n" "$PLAY -p ........." "$PLAY --info $TABLE" "$TRAIN --episodes 10 -o $T/m.oxm" "$GEN --help"; do
        checks=$((checks + 1))
        $cmd >/dev/full 2>"$T/err"
        rc=$?
        if [ "$rc" != 1 ] || ! grep -q "error writing output" "$T/err"; then
            echo "FAIL: '$cmd >/dev/full' exited $rc: $(cat "$T/err")"; fails=$((fails + 1))
        fi
    done
fi
# A file-size limit: a clear error, not a process killed by SIGXFSZ. Messages go through a pipe,
# which the limit does not cover.
for cmd in "$GEN -o $T/limited.oxt" "$TRAIN --episodes 10 -o $T/limited.oxm"; do
    checks=$((checks + 1))
    (ulimit -f 0; $cmd 2>&1 >/dev/null; echo "exit $?") | cat >"$T/err"
    if ! grep -q "exit 1" "$T/err" || ! grep -q "File too large" "$T/err"; then
        echo "FAIL: '$cmd' under ulimit -f 0: $(cat "$T/err")"; fails=$((fails + 1))
    fi
done
checks=$((checks + 1))
if ls "$T" | grep -q '\.tmp\.'; then echo "FAIL: temporary files left: $(ls "$T")"; fails=$((fails + 1)); fi
quotes tests/TESTING.md "| $((checks + 1)) checks: each exits 2 (usage) or 1 (runtime)"
finish
