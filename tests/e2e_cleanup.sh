#!/bin/sh
# The end-to-end scripts leave nothing running when they end: a script that uses lib.sh's
# watchdog as the tests do (one stopped after its wait, one still running at the exit) runs in a
# session of its own, and once it has ended no process of that session may remain. Before this
# test, each stopped watchdog left its `sleep 120` or `sleep 300` behind for minutes.
LIB="$(cd "$(dirname "$0")" && pwd)/lib.sh"
. "$LIB"
cat >"$T/script.sh" <<SCRIPT
. "$LIB"
sleep 30 & pid=\$!
watchdog \$pid 120
kill \$pid; wait \$pid
kill \$dog
watchdog \$\$ 300
exit 0
SCRIPT
setsid sh "$T/script.sh" >"$T/out" 2>"$T/err" &
sid=$!
wait $sid; ok "the script exits 0" [ $? = 0 ]
# The session's processes get a moment to go (a stopped dog's last sleep of a second ends).
checks=$((checks + 1))
if waitfor 50 sh -c "! pgrep -s $sid >/dev/null"; then :; else
    echo "FAIL: processes of the script's session still run after it ended:"; pgrep -a -s "$sid" | sed 's/^/  /'
    pkill -s "$sid" 2>/dev/null
    fails=$((fails + 1))
fi

finish
