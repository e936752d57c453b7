#!/bin/sh
# A new game family, and a new agent kind, are each one file plus one registry row, proven rather
# than stated: a copy of the sources gets tests/toy/line.c in lookup/games/ and tests/toy/greedy.c
# in lookup/agents/, each with its row (and declaration) in its folder's registry.c and nothing
# else, is built, and the programs solve and play the new game and play the new agent. The game's
# solved values are checked against an independent negamax (python3, below), not against oxo.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "${OXO_SOURCE_DIR:-$(dirname "$0")/..}" && pwd)
S=$T/src
mkdir "$S"
(cd "$SRC" && tar cf - --exclude='./build*' --exclude=./.git --exclude=node_modules --exclude=./data .) | (cd "$S" && tar xf -)
cp "$SRC/tests/toy/line.c" "$S/lookup/games/line.c"
sed -i -e 's|^extern const oxo_family oxo_family_connect4;.*|&\nextern const oxo_family oxo_family_line;|' \
    -e 's|^    &oxo_family_connect4,|&\n    \&oxo_family_line,|' "$S/lookup/games/registry.c"
cp "$SRC/tests/toy/greedy.c" "$S/lookup/agents/greedy.c"
sed -i -e 's|^extern const agent_kind oxo_agent_puct;.*|&\nextern const agent_kind oxo_agent_greedy;|' \
    -e 's|^    &oxo_agent_puct,|&\n    \&oxo_agent_greedy,|' "$S/lookup/agents/registry.c"
# What changed: two files added, two lines of each registry, nothing else.
diff -r "$SRC/lookup" "$S/lookup" >"$T/diff"
ok "the copy differs from the sources in more than the new files and the registries' two lines each" \
    test "$(grep -c '^[<>]' "$T/diff")" = 4 -a "$(grep -c '^Only in' "$T/diff")" = 2
has diff "Only in $S/lookup/games: line.c"
has diff "Only in $S/lookup/agents: greedy.c"
for d in gen train formats tests; do
    ok "the copy's $d/ differs from the sources'" diff -rq -x node_modules "$SRC/$d" "$S/$d"
done
ok "CMakeLists.txt differs" cmp -s "$SRC/CMakeLists.txt" "$S/CMakeLists.txt"

B=$T/build
expect 0 cmake -S "$S" -B "$B" -DOXO_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
expect 0 cmake --build "$B" --target oxo-gen oxo-play oxo-arena -j 2 || { cat "$T/out" | tail -20; finish; exit 1; }

# The registry lists it where games are listed, and refuses it out of range in its own words.
expect 2 "$B/oxo-gen" --game nosuch
has err "line:N,K (a row of N cells, K in a row)"
expect 2 "$B/oxo-gen" --game line:30,3
has err "expected line:N,K with N from 2 to 20"

# Solved by the generator, every position's value checked against a plain negamax over the game's
# rules written here, apart from oxo.
cat >"$T/ref.py" <<'EOF'
import json, sys
from functools import lru_cache
n, k = int(sys.argv[1]), int(sys.argv[2])
def run(cells, who):
    s = "".join(cells)
    return who * k in s
by_ply = {}
@lru_cache(maxsize=None)
def solve(board):
    """value for the side to move (1 win, 0 draw, -1 loss) and plies to the end"""
    stones = n - board.count(".")
    who, other = ("X", "O") if stones % 2 == 0 else ("O", "X")
    if run(board, other):
        return (-1, 0)
    if "." not in board:
        return (0, 0)
    best = None
    for i, c in enumerate(board):
        if c == ".":
            v, d = solve(board[:i] + who + board[i + 1:])
            cand = (-v, d + 1)
            # a win sooner, a loss later, a draw is a draw
            key = (cand[0], -cand[1] if cand[0] > 0 else cand[1])
            if best is None or key > best[0]:
                best = (key, cand)
    return best[1]
seen = set()
def walk(board):
    if board in seen:
        return
    seen.add(board)
    stones = n - board.count(".")
    by_ply[stones] = by_ply.get(stones, 0) + 1
    who, other = ("X", "O") if stones % 2 == 0 else ("O", "X")
    if run(board, other) or "." not in board:
        return
    for i, c in enumerate(board):
        if c == ".":
            walk(board[:i] + who + board[i + 1:])
walk("." * n)
v, d = solve("." * n)
print(json.dumps({"root": {1: "win", 0: "draw", -1: "loss"}[v], "distance": d,
                  "by_ply": [by_ply.get(i, 0) for i in range(n + 1)]}))
EOF
for g in 2,2 3,2 5,3 7,3 8,4; do
    expect 0 "$B/oxo-gen" --game "line:$g" --json -o "$T/line.oxt" || continue
    mv "$T/out" "$T/gen.json"
    python3 "$T/ref.py" $(echo "$g" | tr , ' ') >"$T/ref.json"
    ok "line:$g: oxo-gen's root value and positions per ply differ from the reference's ($(cat "$T/ref.json"))" \
        test "$(jq -c '[.root_value, .positions_by_ply]' "$T/gen.json")" = "$(jq -c '[.root, .by_ply]' "$T/ref.json")"
    expect 0 "$B/oxo-play" --game "line:$g" --table "$T/line.oxt" --position "$(echo "$g" | awk -F, '{ s = ""; for (i = 0; i < $1; i++) s = s "."; print s }')" --json
    ok "line:$g: the player's value of the start is not the reference's" \
        test "$(jq -r .value "$T/out")" = "$(jq -r .root "$T/ref.json")"
done
# And it plays: perfect against random never loses, as X or as O.
expect 0 "$B/oxo-gen" --game line:7,3 -o "$T/line.oxt"
expect 0 "$B/oxo-play" --game line:7,3 --table "$T/line.oxt" --self-play --versus-agent random --games 50 --seed 4
ok "the table lost a game of line:7,3 as X to random play: $(cat "$T/out")" grep -q 'O won 0$' "$T/out"
expect 0 "$B/oxo-play" --game line:7,3 --agent random --self-play --versus "$T/line.oxt" --games 50 --seed 4
ok "the table lost a game of line:7,3 as O to random play: $(cat "$T/out")" grep -q 'X won 0,' "$T/out"

# The toy agent: it plays (both games), it is refused in its own words, and it plays as written:
# it never misses a win in one or a block; the arena rates it above random play on tic-tac-toe.
expect 0 "$B/oxo-play" --game line:7,3 --agent greedy --self-play --versus "$T/line.oxt" --games 20 --seed 2
has out "20 games"
expect 2 "$B/oxo-play" --agent greedy:middle --self-play
has err "greedy[:first|:last]"
expect 0 "$B/oxo-play" --agent greedy --position 'XX.OO....' --json
has out '"move":2,'
expect 0 "$B/oxo-play" --agent greedy:last --position 'XX.O.....' --json
has out '"move":2,'
expect 0 "$B/oxo-play" --agent greedy --position '.........' --json
has out '"move":0,'
expect 0 "$B/oxo-play" --agent greedy:last --position '.........' --json
has out '"move":8,'
expect 0 "$B/oxo-arena" --agent random --agent greedy --agent greedy:last --games 20 --judge none --json
ok "the arena does not rate greedy above random: $(cat "$T/out")" \
    jq -e '(.ratings | map(select(.agent == "greedy")) | .[0].elo) > 0' "$T/out" >/dev/null
finish
