#!/bin/sh
# I/O faults: fail the Nth write, fsync, close or rename (ENOSPC, EIO), for N = 1, 2, ... until the
# save succeeds. Each failure must exit 1 with an error, keep the old file byte-identical and
# leave no temporary file; a short write and an EINTR must be retried and succeed.
. "$(dirname "$0")/lib.sh"
SHIM=$1 GEN=$2 TRAIN=$3 PLAY=$4
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}
OLD=$SRC/tests/fixtures/newer-minor.oxt   # a valid file with other bytes

attempt() { # attempt TARGET NEW OP N MODE CMD...: one run under a fault; 0 once the save succeeded
    target=$1 new=$2 op=$3 n=$4 mode=$5; shift 5
    cp "$OLD" "$target"
    checks=$((checks + 1))
    LD_PRELOAD=$SHIM OXO_FAULT=$op:$n:$mode "$@" >/dev/null 2>"$T/err"
    rc=$?
    if ls "$T" | grep -q '\.tmp\.'; then
        echo "FAIL: $op #$n $mode: temporary file left"; fails=$((fails + 1)); rm -f "$T"/*.tmp.*
    fi
    if [ $rc = 0 ]; then
        cmp -s "$target" "$new" || { echo "FAIL: $op #$n $mode: exit 0 but the file is not the new one"; fails=$((fails + 1)); }
        return 0
    fi
    if [ $rc != 1 ] || ! grep -q "i/o error" "$T/err"; then
        echo "FAIL: $op #$n $mode: exit $rc, stderr: $(cat "$T/err")"; fails=$((fails + 1))
    fi
    cmp -s "$target" "$OLD" || { echo "FAIL: $op #$n $mode: the old file changed"; fails=$((fails + 1)); }
    return 1
}

"$GEN" -o "$T/new.oxt" >/dev/null
"$TRAIN" --algo td --episodes 2000 -o "$T/new.oxm" >/dev/null
failures=0
for prog in gen train; do
    if [ $prog = gen ]; then target=$T/t.oxt new=$T/new.oxt; set -- "$GEN" -o "$T/t.oxt"
    else target=$T/m.oxm new=$T/new.oxm; set -- "$TRAIN" --algo td --episodes 2000 -o "$T/m.oxm"; fi
    for op in write fsync close rename; do
        for mode in ENOSPC EIO; do
            n=1
            while ! attempt "$target" "$new" $op $n $mode "$@"; do
                failures=$((failures + 1)); n=$((n + 1))
                [ $n -gt 20 ] && { echo "FAIL: $op $mode never succeeds"; fails=$((fails + 1)); break; }
            done
        done
    done
    for mode in short EINTR; do
        attempt "$target" "$new" write 1 $mode "$@" || { echo "FAIL: a $mode write was not retried"; fails=$((fails + 1)); }
    done
done
# A signal in the middle of a save (fsync held 3 s). oxo-gen ends by the signal: its temporary file
# is removed and the old file untouched. oxo-train, whose first signal only asks it to stop, ends
# the save it is in: the new model is in place. Both exit 128 + 15 and leave no temporary file.
for prog in "$GEN -o $T/sig.oxt" "$TRAIN --episodes 100 -o $T/sig.oxt"; do
    cp "$OLD" "$T/sig.oxt"
    LD_PRELOAD=$SHIM OXO_FAULT=fsync:1:slow $prog >/dev/null 2>&1 &
    pid=$!
    watchdog $pid 120
    catching $pid 15
    sleep 0.5 # into the save, which fsync holds for 3 s
    kill -TERM $pid
    wait $pid
    rc=$?
    kill $dog 2>/dev/null
    checks=$((checks + 1))
    [ $rc = 143 ] || { echo "FAIL: '$prog' killed in its save exited $rc, expected 143"; fails=$((fails + 1)); }
    checks=$((checks + 1))
    if ls "$T" | grep -q '\.tmp\.'; then
        echo "FAIL: '$prog' killed in its save left $(ls "$T" | grep '\.tmp\.')"; fails=$((fails + 1)); rm -f "$T"/*.tmp.*
    fi
    checks=$((checks + 1))
    case $prog in
    *oxo-gen*) cmp -s "$T/sig.oxt" "$OLD" || { echo "FAIL: '$prog' killed in its save changed the old file"; fails=$((fails + 1)); } ;;
    *) ! cmp -s "$T/sig.oxt" "$OLD" || { echo "FAIL: '$prog' stopped in its save did not save"; fails=$((fails + 1)); } ;;
    esac
done
# A checkpoint of a run that averages its weights (at 3,000 episodes of 4,000, the mean of the 2
# taken from 2,000 on) holds the grade of what it plays, the mean so far: the curve's row of that
# episode. The run's last save fails (the third rename: the checkpoint's model and its curve come
# first), so the checkpoint stays in place.
"$GEN" --game connect4:4,4 -o "$T/c44.oxt" >/dev/null
expect 1 env LD_PRELOAD="$SHIM" OXO_FAULT=rename:3:EIO "$TRAIN" --algo ntuple --game connect4:4,4 \
    --table "$T/c44.oxt" --tuples 24 --tuple-len 6 --episodes 4000 --average 0.5 --no-defend \
    --checkpoint-every 3000 --eval-every 1000 --curve "$T/ck.csv" -q -o "$T/ck.oxm"
has err "i/o error"
expect 0 "$PLAY" --info "$T/ck.oxm" --json
has out '"episodes":3000,' && has out '"average":{"from":2000,"every":1000,"count":2}'
held=$(sed 's/.*"accuracy":\([0-9.]*\),"accuracy_distance":\([0-9.]*\),"exhaustive_losses_as_x":\([0-9]*\),"exhaustive_losses_as_o":\([0-9]*\),.*/\1,\2,\3,\4/' "$T/out")
row=$(awk -F, '$1 == 3000 { print $4 "," $5 "," $6 "," $7 }' "$T/ck.csv")
ok "the checkpoint's grade ($held) is the curve's of its episode, the mean's ($row)" test -n "$row" -a "$held" = "$row"
expect 0 "$PLAY" --info "$T/ck.oxm"
has out "weights: the mean of the 2 taken so far, every 1000 episodes from episode 2000"

echo "$failures injected failures refused cleanly"
quotes tests/TESTING.md "| $failures injected failures: each exits 1 with an error"
checks=$((checks + 1))
[ $failures -ge 12 ] || { echo "FAIL: only $failures failures were injected"; fails=$((fails + 1)); }
finish
