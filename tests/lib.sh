# Helpers for the end-to-end scripts: run a command, check its exit code and what it printed.
# expect CODE CMD...: runs CMD with stdin from $IN (default /dev/null); stdout in $T/out, stderr in $T/err.
set -u
T=$(mktemp -d /tmp/oxo-e2e.XXXXXX)
dogs=""
# On exit: the watchdogs still running stopped (each takes its sleep with it), the scratch folder removed.
trap 'for d in $dogs; do kill "$d" 2>/dev/null; done; rm -rf "$T"' EXIT
fails=0
checks=0
IN=/dev/null

expect() {
    want=$1; shift
    checks=$((checks + 1))
    "$@" <"$IN" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: '$*' exited $got, expected $want"; sed 's/^/  stderr: /' "$T/err" | head -5
        fails=$((fails + 1))
        return 1
    fi
    return 0
}

# has FILE TEXT: FILE contains TEXT (fixed string)
has() {
    checks=$((checks + 1))
    if ! grep -qF -- "$2" "$T/$1"; then
        echo "FAIL: $1 of the last command lacks '$2'"; sed 's/^/  | /' "$T/$1" | head -8
        fails=$((fails + 1))
    fi
}

empty() {
    checks=$((checks + 1))
    if [ -s "$T/$1" ]; then
        echo "FAIL: $1 of the last command should be empty"; head -3 "$T/$1"
        fails=$((fails + 1))
    fi
}

# quotes FILE TEXT: FILE (README.md, or a record beside the code: gen/RECORD.md ...) quotes TEXT,
# a figure this test printed today (it keeps the documents' figures current: a drift fails the
# test, naming what to write where).
quotes() {
    checks=$((checks + 1))
    if ! grep -qF -- "$2" "${OXO_SOURCE_DIR:-$(dirname "$0")/..}/$1"; then
        echo "FAIL: $1 does not quote '$2', what this test finds today: update $1"
        fails=$((fails + 1))
    fi
}
readme_quotes() { quotes README.md "$1"; }

# outcomes: true where long runs of whole games are checked for their outcome (the normal build);
# false under the sanitizers (OXO_SANITIZED), where the shorter runs of the same code beside them
# look for memory errors, ten times slower each.
outcomes() { [ -z "${OXO_SANITIZED:-}" ]; }

# ok WHAT CMD...: one check that CMD succeeds, WHAT saying what then holds.
ok() { what=$1; shift; checks=$((checks + 1)); "$@" || { echo "FAIL: not so: $what"; fails=$((fails + 1)); }; }

finish() {
    for f in "$T"/hung.*; do [ -e "$f" ] && hung_stacks "${f##*.}"; done
    echo "$checks checks, $fails failed"
    echo "$((checks - fails)) passed, $fails failed"
    [ "$fails" = 0 ]
}

# catching PID SIG: waits (at most 60 s) until process PID has its handler for signal SIG in place,
# read from the SigCgt mask of /proc/PID/status. A background job of a non-interactive shell starts
# with SIGINT ignored, so a signal sent before the handler is set is lost and the job runs on: a
# fixed sleep made that a race a loaded machine could lose, and the test then hung.
catching() {
    n=0
    while [ $n -lt 600 ]; do
        mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
        [ -z "$mask" ] && return 1 # the process is gone
        [ $(( (0x$mask >> ($2 - 1)) & 1 )) = 1 ] && return 0
        sleep 0.1; n=$((n + 1))
    done
    return 1
}

# waitfor TENTHS CMD...: runs CMD every tenth of a second until it succeeds, at most TENTHS times;
# its status is CMD's last (a file a background job writes, a line count reached).
waitfor() {
    n=$1; shift
    until "$@"; do
        n=$((n - 1)); [ $n -le 0 ] && return 1
        sleep 0.1
    done
}

# watchdog PID SECONDS: kills PID if it still runs after SECONDS, so that a wait on it can fail a
# check but never hang the test. Stop it with 'kill $dog' once the wait is over; the test's exit
# stops any dog still running. A dog counts its seconds one sleep of a second at a time, so that
# once stopped nothing of it outlives a second (a plain `( sleep N; kill ... ) &` left its sleep
# running for N seconds after the test ended; a trap that killed the sleep lost a race with a
# stop that came at once, and left it too). Before it kills, a dog leaves the stacks of every
# thread of the process in $T/hung.PID where gdb can attach (shown by hung_stacks PID), so that a
# hang seen once in CI tells where it was.
watchdog() {
    ( n=$2
      while [ "$n" -gt 0 ]; do sleep 1; n=$((n - 1)); done
      if kill -0 "$1" 2>/dev/null && command -v gdb >/dev/null; then
          timeout 60 gdb -p "$1" -batch -ex 'thread apply all bt' >"$T/hung.$1" 2>&1
      fi
      kill -9 "$1" 2>/dev/null ) >/dev/null 2>&1 &
    dog=$!
    dogs="$dogs $dog"
}
# hung_stacks PID: prints the stacks a watchdog took of PID before it killed it, if it took any.
hung_stacks() {
    [ -s "$T/hung.$1" ] || return 0
    echo "the stacks of process $1 when its watchdog killed it:"
    grep -E '^(Thread|#)' "$T/hung.$1" | head -60 | sed 's/^/  /'
    rm -f "$T/hung.$1"
}
