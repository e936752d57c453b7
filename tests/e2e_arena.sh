#!/bin/sh
# oxo-arena as a user runs it: the command line, a tic-tac-toe tournament where the table player
# and the solver are never beaten and rank first, MCTS beats random, the judge's grades, the same
# bytes on 1 and 2 threads, the heat map, and Connect-4 with the solver.
# Also oxo-play --agent, the same agents as players.
# Usage: e2e_arena.sh ARENA GEN PLAY
. "$(dirname "$0")/lib.sh"
A=$1 GEN=$2 PLAY=$3
SRC=${OXO_SOURCE_DIR:-$(dirname "$0")/..}

expect 0 "$A" --help && has out "Usage: oxo-arena"
expect 0 "$A" --version && has out "oxo-arena "
expect 2 "$A" -a random && has err "at least two agents"
expect 2 "$A" -a random -a rnd && has err "expected random"
# the message names every kind of the registry, to the last (it was cut at 512 bytes before azero)
has err "or azero:SIMULATIONS[:C]:model=FILE"
# and --help lists every kind with what it does
expect 0 "$A" --help && has out "azero:SIMULATIONS[:C]:model=FILE" && has out "AlphaZero-lite's search"
expect 2 "$A" -a random -a random && has err "two agents are called 'random'"
expect 2 "$A" -a random -a table --anchor nobody && has err "no agent is called 'nobody'"
expect 2 "$A" -a random -a table --judge tablex && has err "expected table[:FILE], FILE (a table or a judged set), solver or none"
expect 1 "$A" -a random -a table --judge oracle && has err "cannot open oracle"
expect 2 "$A" -a random -a table --games 0 && has err "--games"
expect 1 "$A" -g connect4:4,4 -a random -a table:"$OXO_DATA_DIR/tictactoe.oxt" && has err "not of connect4 4x4"
expect 2 "$A" -a random -a alphabeta:3 stray && has err "unexpected argument"
# A right spec naming a file that does not read is a failure (1), not bad usage (2).
echo "not a model" >"$T/junk.oxm"
expect 1 "$A" -a random -a model:"$T/junk.oxm" && has err "junk.oxm"
expect 1 "$A" -a random -a table:"$T/missing.oxt" && has err "missing.oxt"
expect 1 "$PLAY" --agent model:"$T/junk.oxm" --self-play && has err "junk.oxm"

# Tic-tac-toe: the perfect players are never beaten and rank first.
expect 0 "$A" -a random -a table -a solver -a alphabeta:1 -a mcts:100 -n 20 --json -j 2 --svg "$T/m.svg"
cp "$T/out" "$T/two.json"
ok "the table player never lost" test "$(jq '.ratings[] | select(.agent == "table") | .losses' "$T/two.json")" = 0
ok "the solver never lost" test "$(jq '.ratings[] | select(.agent == "solver") | .losses' "$T/two.json")" = 0
ok "the table player and the solver rank first" test "$(jq -r '[.ratings[0].agent, .ratings[1].agent] | sort | join(",")' "$T/two.json")" = "solver,table"
ok "their intervals overlap (tied)" test "$(jq '.ratings[0].low <= .ratings[1].high and .ratings[1].low <= .ratings[0].high' "$T/two.json")" = true
ok "the table player keeps the value with every move" test "$(jq '.ratings[] | select(.agent == "table") | .value_kept' "$T/two.json")" = 1
ok "random is the anchor at 0" test "$(jq '.ratings[] | select(.agent == "random") | .elo' "$T/two.json")" = 0
ok "random keeps the value less often" test "$(jq '.ratings[] | select(.agent == "random") | .value_kept < 0.9' "$T/two.json")" = true
i=$(jq '.matrix.agents | index("mcts:100")' "$T/two.json"); j=$(jq '.matrix.agents | index("random")' "$T/two.json")
ok "MCTS beats the random player" test "$(jq ".matrix.score[$i][$j] > 0.7" "$T/two.json")" = true
ok "every agent played 4 opponents x 40 games" test "$(jq '[.ratings[].games] | unique' -c "$T/two.json")" = "[160]"
ok "the heat map is an SVG" sh -c "head -c 4 '$T/m.svg' | grep -q '<svg' && tail -1 '$T/m.svg' | grep -q '</svg>'"
# ... with its colour key, on an orange-to-blue scale (red against green cannot be told apart by
# many readers; the map had neither key nor other colours).
ok "the heat map has its key" grep -q "key: the row's score against the column" "$T/m.svg"
ok "the key shows the scale in 11 steps" test "$(grep -c 'width="30" height="16"' "$T/m.svg")" = 11
ok "the key's ends are orange and blue" sh -c "grep -q 'fill=\"rgb(241,163,64)\"' '$T/m.svg' && grep -q 'fill=\"rgb(103,169,207)\"' '$T/m.svg'"
expect 0 "$A" -a random -a table -a solver -a alphabeta:1 -a mcts:100 -n 20 --json -j 1
ok "the same bytes on 1 and 2 threads" cmp -s "$T/out" "$T/two.json"
expect 0 "$A" -a random -a table -a solver -a alphabeta:1 -a mcts:100 -n 20 --json -j 2 --seed 2
ok "another seed, other games" sh -c "! cmp -s '$T/out' '$T/two.json'"
expect 0 "$A" -a me=random -a table -n 3 --bootstrap 0
has out "| rank | agent | Elo | 95% interval |"
has out "| 1 | table |"
has out "me = 0"

# Connect-4 4x4: the solver is never beaten; the table judges every move.
expect 0 "$GEN" --game connect4:4,4 -o "$T/c44.oxt"
expect 0 "$A" -g connect4:4,4 -a random -a solver -a alphabeta:2 -a mcts:200 -n 6 --judge table:"$T/c44.oxt" --json
ok "the Connect-4 solver never lost" test "$(jq '.ratings[] | select(.agent == "solver") | .losses' "$T/out")" = 0
ok "the Connect-4 solver keeps the value with every move" test "$(jq '.ratings[] | select(.agent == "solver") | .value_kept' "$T/out")" = 1
# --judge solver grades every move by the search solver (no table): the same grades, to the last
# digit, as the table's, on 1 thread and on 2 (one solver a thread); only games it serves.
jq -c 'del(.judge)' "$T/out" >"$T/by-table"
for j in 1 2; do
    expect 0 "$A" -g connect4:4,4 -a random -a solver -a alphabeta:2 -a mcts:200 -n 6 --judge solver --json -j $j
    ok "--judge solver (-j $j) grades as the table does" sh -c 'jq -c "del(.judge)" "$1" | cmp -s - "$2"' - "$T/out" "$T/by-table"
    has out '"judge":"solver"'
done
expect 2 "$A" -a random -a alphabeta:2 --judge solver && has err "the solver does not serve tictactoe"

# The agents as players: oxo-play --agent, with no table where none exists.
expect 0 "$PLAY" --game connect4 --agent alphabeta:4 --self-play --versus-agent random --games 6 --seed 1
has out "6 games: X won 6, drawn 0, O won 0"
expect 0 "$PLAY" --game connect4 --agent random --self-play --versus-agent alphabeta:4 --games 6 --seed 1
has out "X won 0"
expect 0 "$PLAY" --agent mcts:300 --self-play --versus-agent random --games 20 --seed 3
ok "MCTS as X wins most games against random" test "$(sed -n 's/.*X won \([0-9]*\),.*/\1/p' "$T/out")" -ge 15
expect 0 "$PLAY" --agent solver --self-play --versus "$OXO_DATA_DIR/tictactoe.oxt" --games 10 --seed 1
has out "drawn 10"
IN="$T/moves"; printf '5\n1\n9\n3\n7\n' >"$IN"
expect 0 "$PLAY" --agent alphabeta:3 --seed 2 && has out "I play cell"
IN=/dev/null
expect 1 "$PLAY" --game connect4 --agent random --hints && has err "--hints needs the game's table"
expect 0 "$PLAY" --agent random --position X........ && has out "O to move: random plays cell "
expect 2 "$PLAY" --agent alphabeta:0 --self-play && has err "alphabeta:DEPTH"
expect 2 "$PLAY" --versus-agent random && has err "go with --self-play"
# Connect-4 7x6 without a table: the solver within a budget per move (exact when it finishes, else
# a value model or alpha-beta, and it says so). It wins against random with either colour.
expect 0 "$PLAY" --game connect4 --agent solver --budget-ms 300 --self-play --versus-agent random --games 4 --seed 1
has out "4 games: X won 4, drawn 0, O won 0"
# Against alpha-beta depth 4, with a budget of nodes instead of time, so that the games do not
# depend on the machine's load (with 300 ms a move, a loaded machine lost one game in four): with
# the shipped network choosing where the budget runs out, it wins every game as X, and as O with
# 5,000,000 nodes a move (below; the network shipped before, learning toward the opponent's
# afterstate, won 4 and drew 2 there; the one before it, without exploring starts, won all 6, and
# with 3,000,000 nodes drew one in six).
V="$SRC/data/connect4-7-6-ntuple-plain.oxm"
if outcomes; then
    expect 0 "$PLAY" --game connect4 --agent solver:nodes=3000000:value="$V" --self-play --versus-agent alphabeta:4 --games 6 --seed 1
    has out "6 games: X won 6, drawn 0, O won 0"
else # the same code under the sanitizers, one game
    expect 0 "$PLAY" --game connect4 --agent solver:nodes=3000000:value="$V" --self-play --versus-agent alphabeta:4 --games 1 --seed 1
    has out "result: X wins"
fi
# The perfect opponent of --self-play (--versus-agent solver) answers from the shipped book too
# (about a tenth of a second a game here, where without the book the first game alone takes 35 s:
# its first answers are solves of 9 stones or fewer). It opens the game's book: a broken one in
# $OXO_DATA_DIR is refused, naming it, before any game.
expect 0 "$PLAY" --game connect4 --agent model:"$V" --versus-agent solver --self-play --games 2 --seed 5
has out "2 games:"
mkdir -p "$T/badbook"
echo "not a book" >"$T/badbook/connect4-7-6-book.oxt"
expect 1 env OXO_DATA_DIR="$T/badbook" "$PLAY" --game connect4 --agent model:"$V" --versus-agent solver --self-play \
    --games 1 --seed 5
has err "connect4-7-6-book.oxt"
# solver:outcome, the perfect player that keeps the game value whatever the distance, takes the
# shipped book as solver does (a broken one is refused); the shipped network loses fewer games as X
# to it than to the best-score player, whose slowest losses are the longest defence.
if outcomes; then
    expect 0 "$PLAY" --game connect4 --agent model:"$V" --versus-agent solver:outcome --self-play --games 20 --seed 1
    has out "20 games: X won 19, drawn 0, O won 1"
    expect 0 "$PLAY" --game connect4 --agent model:"$V" --versus-agent solver --self-play --games 20 --seed 1
    has out "20 games: X won 17, drawn 1, O won 2"
fi
# puct, the search led by the network, plays 7x6 against the perfect player (what it wins is in the
# train/RECORD.md: 200 games are a bench's work, not a test's; e2e_train checks that the search corrects a
# weak model; test_agents that it draws nothing from the stream).
expect 0 timeout 300 "$PLAY" --game connect4 --agent puct:200:value="$V" --versus-agent solver --self-play --games 2 --seed 1
has out "2 games:"
expect 1 env OXO_DATA_DIR="$T/badbook" "$PLAY" --game connect4 --agent model:"$V" --versus-agent solver:outcome --self-play \
    --games 1 --seed 5
has err "connect4-7-6-book.oxt"
expect 2 "$PLAY" --game connect4 --agent random --self-play --versus-agent solver:outcome:300
has err "solver:outcome[:book=FILE]"
expect 0 "$PLAY" --game connect4 --agent solver:outcome --self-play --versus-agent random --games 4 --seed 1
has out "4 games: X won 4, drawn 0, O won 0"
expect 1 env OXO_DATA_DIR="$T/badbook" "$PLAY" --game connect4 --agent solver:outcome --self-play --versus-agent random \
    --games 1 --seed 1
has err "connect4-7-6-book.oxt"
expect 2 "$PLAY" --game connect4 --agent model:"$V" --versus-agent solver --self-play --book "$SRC/data/connect4-7-6-book.oxt" --no-book
has err "--book or --no-book (not both)"
expect 2 "$PLAY" --game connect4 --agent model:"$V" --versus-agent random --self-play --no-book
has err "--versus-agent solver"
# oxo-arena's solver agents take the shipped book as oxo-play's do (the output names it): the exact
# solver against the network, 2 games in about a second here, where without the book each of its
# first answers is a solve of minutes (the timeout fails the test). As X it wins. A broken shipped
# book is refused, naming it; a --book of another game is a failure; --book with --no-book, either
# on a game without gravity, or either without a solver agent to take it, bad usage.
expect 0 timeout 300 "$A" -g connect4 -a ntuple=model:"$V" -a solver -n 1 --json
ok "the booked solver won its game as X" test "$(jq '.ratings[] | select(.agent == "solver") | .wins' "$T/out")" -ge 1
ok "the arena names the shipped book" test "$(jq -r '.book' "$T/out")" = "$OXO_DATA_DIR/connect4-7-6-book.oxt"
expect 0 "$A" -g connect4 -a ntuple=model:"$V" -a alphabeta:2 -n 1 --json
ok "no solver, no book" test "$(jq -r '.book' "$T/out")" = null
expect 1 env OXO_DATA_DIR="$T/badbook" "$A" -g connect4 -a ntuple=model:"$V" -a solver:300 -n 1
has err "connect4-7-6-book.oxt"
expect 1 "$A" -g connect4 -a random -a solver --book "$SRC/data/connect4-6-5-book.oxt" && has err "not of connect4 7x6"
expect 2 "$A" -g connect4 -a random -a solver --book "$SRC/data/connect4-7-6-book.oxt" --no-book
has err "--book or --no-book (not both)"
expect 2 "$A" -a random -a solver --no-book && has err "Connect-4 game"
expect 2 "$A" -g connect4 -a random -a alphabeta:2 --no-book && has err "go with a solver agent"
expect 2 "$A" -g connect4 -a random -a solver:book="$SRC/data/connect4-7-6-book.oxt" --book "$SRC/data/connect4-7-6-book.oxt"
has err "without a :book=FILE of its own"
if outcomes; then
    expect 0 "$PLAY" --game connect4 --agent alphabeta:4 --self-play --versus-agent solver:nodes=5000000:value="$V" --games 6 --seed 1
    has out "6 games: X won 0, drawn 0, O won 6"
fi
expect 2 "$PLAY" --game connect4 --agent solver:nodes=0 --self-play --versus-agent random; has err "solver:nodes=N"
# alpha-beta with the network at its leaves instead of the heuristic (alphabeta:D:value=FILE): it
# does not lose to the heuristic's alpha-beta of the same depth with either colour (as X it wins
# all 4, as O 3 of 4 and draws one); a value file of another
# game fails (1), a missing file name is bad usage (2).
expect 0 "$PLAY" --game connect4 --agent alphabeta:2:value="$V" --self-play --versus-agent alphabeta:2 --games 4 --seed 1
has out "4 games: X won 4, drawn 0, O won 0"
expect 0 "$PLAY" --game connect4 --agent alphabeta:2 --self-play --versus-agent alphabeta:2:value="$V" --games 4 --seed 1
has out "X won 0, drawn 1, O won 3"
expect 1 "$PLAY" --game connect4 --agent alphabeta:2:value="$OXO_DATA_DIR/tictactoe.oxt" --self-play --games 1
has err "is a file of tictactoe"
expect 2 "$PLAY" --game connect4 --agent alphabeta:2:value= --self-play; has err "alphabeta:DEPTH[:value=FILE]"
expect 0 "$PLAY" --game connect4 --agent random --self-play --versus-agent solver:300 --games 4 --seed 2
has out "X won 0, drawn 0, O won 4"
# Levels apply to the solver as to a table player: at level 1 it plays at random and loses to
# alpha-beta depth 2 in most games; at level 10 it never loses to random (a level used to be
# ignored).
expect 0 "$PLAY" --game connect4 --level 1 --self-play --versus-agent alphabeta:2 --games 6 --budget-ms 50 --seed 3
has out "X won 1, drawn 0, O won 5"
expect 0 "$PLAY" --game connect4 --level 10 --self-play --versus-agent random --games 6 --budget-ms 100 --seed 3
has out "O won 0"
# Where the budget runs out, a value model chooses among the columns not proven to lose: the
# shipped n-tuple network by default on 7x6, or any model given with :value=FILE.
expect 0 "$PLAY" --game connect4 --agent solver:50:value="$SRC/data/connect4-7-6-ntuple-plain.oxm" --self-play --versus-agent random --games 2 --seed 1
has out "O won 0"
expect 1 "$PLAY" --game connect4 --agent solver:50:value="$SRC/data/tictactoe.oxt" --self-play --versus-agent random; has err "is a file of tictactoe, not of connect4 7x6"
expect 2 "$PLAY" --game connect4 --agent solver:50:value= --self-play --versus-agent random; has err "solver:MS[:value=FILE]"
IN="$T/moves"; printf '4\n4\n4\n' >"$IN"
# (--no-book: once the 7x6 book is in data/, the first moves are exact)
expect 1 "$PLAY" --game connect4 --no-book --budget-ms 200 --seed 1 && has out "I play column" && has out "not exact: "
has out "chosen by the value model"
has err "end of input before the game ended"
IN=/dev/null
expect 2 "$PLAY" --game connect4 --budget-ms 0 && has err "--budget-ms"
expect 2 "$PLAY" --game connect4 --no-book --book "$T/x.oxt" --position 4 && has err "--book or --no-book (not both)"
expect 2 "$PLAY" --no-book --position X........ && has err "go with the Connect-4 solver player"
expect 2 "$A" -g tictactoe -a random -a solver:100 && has err "solver:MS"
# Positions of Connect-4 7x6 without a table: the solver's column scores within the budget.
expect 0 "$PLAY" --game connect4 --position 2252576253462244111563365343671351441 --json
has out '"exact":true,"scores":[null,null,null,null,null,-1,-2],"score":-1,"value":"loss","distance":4,"best":[5],"best_labels":[6]}'
expect 0 "$PLAY" --game connect4 --no-book --position 4 --budget-ms 50 --json && has out '"exact":false'
# ... and always a move, from the fallback, named (a referee playing oxo met "best":[] before).
ok "a query whose budget ran out names a move" grep -q '"best":\[[0-6]\],"best_labels":\[[1-7]\],"chosen_by":"value model under puct"}' "$T/out"
IN="$T/boards"; printf '2252576253462244111563365343671351441\n44\n' >"$IN"
expect 0 "$PLAY" --game connect4 --no-book --batch --budget-ms 50
has out '"best":[5],"best_labels":[6]}'
has out '"to_move":"X","exact":false'
ok "a batch answer whose budget ran out names a move" grep -q '"exact":false.*"best":\[[0-6]\],"best_labels":\[[1-7]\],"chosen_by":' "$T/out"
IN=/dev/null
# With a budget of nodes the fallback (alpha-beta to depth 6 without a value model) is the same on
# any machine: the columns solved are kept, the move is one of the legal ones, and the text says it.
expect 0 "$PLAY" --game connect4 --agent solver:nodes=1000 --position 3246117513 --json
has out '"exact":false,"scores":[null,null,null,null,null,null,null],"best":[1],"best_labels":[2],"chosen_by":"alphabeta"}'
expect 0 "$PLAY" --game connect4 --agent solver:nodes=1000 --position 3246117513
has out "plays column 2 (not exact: the budget ran out; chosen by alpha-beta to depth 6)"
expect 0 "$PLAY" --game connect4 --agent solver:nodes=100000000 --position 2252576253462244111563365343671351441
has out "best: 6"
IN=/dev/null

# An opening book is never taken for a whole table: each program that reads a table or a model
# names what the file is and where a book goes, instead of playing "move -1" past its depth (a
# segfault in self-play, a training run that never ended, a 25 MB export of garbage).
BIN=$(dirname "$PLAY")
expect 0 "$GEN" --game connect4:5,4 --book 6 -o "$T/b.oxt"
BOOKMSG="is an opening book of connect4:5,4 to depth 6, not a whole table"
expect 1 "$PLAY" --game connect4:5,4 --agent table:"$T/b.oxt" --versus-agent random --self-play; has err "$BOOKMSG"
expect 1 "$PLAY" --table "$T/b.oxt" --self-play; has err "$BOOKMSG"
expect 1 "$PLAY" --game connect4:5,4 --agent alphabeta:2:value="$T/b.oxt" --position 4; has err "$BOOKMSG"
expect 1 "$PLAY" --model "$SRC/data/q.oxm" --self-play --versus "$T/b.oxt"; has err "$BOOKMSG"
expect 1 "$A" -g connect4:5,4 -a random -a alphabeta:2 --judge table:"$T/b.oxt"; has err "$BOOKMSG"
expect 1 "$BIN/oxo-export" --table "$T/b.oxt" -o "$T/b.c"; has err "$BOOKMSG"
ok "no export written from a book" [ ! -e "$T/b.c" ]
expect 1 timeout 60 "$BIN/oxo-train" --game connect4:5,4 --table "$T/b.oxt" --opponent table -o "$T/b.oxm"; has err "$BOOKMSG"
expect 1 timeout 60 "$BIN/oxo-train" --game connect4:5,4 --table "$T/b.oxt" --algo ntuple -o "$T/b.oxm"; has err "$BOOKMSG"
# Where a book is what is asked for, it still serves: --info, and the solver's --book.
expect 0 "$PLAY" --info "$T/b.oxt"
expect 0 "$PLAY" --game connect4:5,4 --book "$T/b.oxt" --position 4444 --json && has out '"exact":true'
# Agent names are text: a newline forged a ranking row, invalid UTF-8 broke the SVG and JSON.
expect 2 "$A" -g tictactoe -a "$(printf 'evil\nrow=random')" -a random; has err "is a control character"
expect 2 "$A" -g tictactoe -a "$(printf 'bad\377=random')" -a random; has err "is not valid UTF-8"
expect 2 "$PLAY" --agent "$(printf 'x\300\257=random')" --position .........; has err "is not valid UTF-8"
expect 0 "$A" -g tictactoe -a "$(printf 'caf\303\251=random')" -a random --games 2 --json --svg "$T/u.svg"
ok "a UTF-8 name is kept in JSON" grep -q "caf" "$T/out"
ok "the JSON is valid" sh -c 'jq -e . "$1" >/dev/null' - "$T/out"
# Whatever a path holds, JSON answers stay valid: bytes of no character become U+FFFD.
expect 0 "$GEN" --game connect4:4,4 --book 2 -o "$T/$(printf 'b\377.oxt')" --json
ok "JSON naming a path of invalid UTF-8 is valid" sh -c 'jq -e ".output | test(\"\\ufffd\")" "$1" >/dev/null' - "$T/out"
# A judged set of a board of 10 columns or more writes its moves as --position takes them there
# (numbers separated by commas; a digit a move wrote ':' for column 10, which no reader took), and
# reads back: each agent is graded in its 4 positions.
expect 0 "$GEN" --game connect4:10,4 --judge-set 4 --seed 3 -o "$T/wide.judge"
ok "the wide judged set writes its moves with commas" sh -c 'sed -n 3p "$1" | grep -Eq "^[0-9]+(,[0-9]+)+ [-+=.]{10}$"' - "$T/wide.judge"
expect 0 "$A" -g connect4:10,4 -a random -a alphabeta:2 --games 1 --judge "$T/wide.judge" --json
ok "the arena reads the wide judged set: 4 positions each" sh -c 'jq -e "[.ratings[] | .judged_positions == 4] | all" "$1" >/dev/null' - "$T/out"
# --judge FILE takes a judged set (the shipped one, those oxo-gen --judge-set writes): each agent
# picks a move in each position, the share that keeps the value with its 95% interval. The shipped
# network's share through the arena's agent is the one oxo-train graded it with (--info).
J="$SRC/data/connect4-7-6.judge"
expect 0 "$A" -g connect4 -a random -a net=model:"$SRC/data/connect4-7-6-ntuple.oxm" --games 1 --judge "$J" --json
ok "the arena grades on a judged set" sh -c 'jq -e ".ratings[] | select(.agent == \"net\") | .judged_positions > 0 and .value_kept_low < .value_kept and .value_kept < .value_kept_high" "$1" >/dev/null' - "$T/out"
share=$(jq -r '.ratings[] | select(.agent == "net") | .value_kept * 10000 | round' "$T/out")
expect 0 "$PLAY" --info "$SRC/data/connect4-7-6-ntuple.oxm" --json
graded=$(jq -r '.accuracy * 10000 | round' "$T/out")
ok "the arena's share of the network ($share) is oxo-train's grade of it ($graded)" test "$share" = "$graded"
# A shipped file is named alike everywhere: a bare name that is no file here is looked up in the
# data folders, as liboxo does (from a folder that holds none of them).
mkdir -p "$T/elsewhere"
expect 0 sh -c 'cd "$1" && OXO_DATA_DIR="$2/data" "$3" -g connect4 -a random -a net=model:connect4-7-6-ntuple.oxm --games 1 --judge connect4-7-6.judge --json' - "$T/elsewhere" "$SRC" "$A"
ok "bare names found in the data folder grade the network alike" sh -c 'test "$(jq -r ".ratings[] | select(.agent == \"net\") | .value_kept * 10000 | round" "$1")" = "$2"' - "$T/out" "$share"
: >"$T/elsewhere/connect4-7-6.judge"
expect 1 sh -c 'cd "$1" && OXO_DATA_DIR="$2/data" "$3" -g connect4 -a random -a alphabeta:1 --games 1 --judge connect4-7-6.judge' - "$T/elsewhere" "$SRC" "$A"
has err "connect4-7-6.judge"; ok "a file of that name here comes first" sh -c '! grep -q "/data/connect4-7-6.judge" "$1"' - "$T/err"
expect 0 "$A" -g connect4 -a random -a alphabeta:2 --games 1 --judge "$J"
has out "judged by $J"
ok "the text gives the interval" grep -q "| [0-9.]*% ([0-9.]*-[0-9.]*) |" "$T/out"
expect 1 "$A" -g tictactoe -a random -a alphabeta:2 --judge "$J"; has err "is a judged set of connect4:7,6, not of tictactoe"
printf '# oxo judged set\ngame connect4:7,6\n44 bad\n' >"$T/bad.judge"
expect 1 "$A" -g connect4 -a random -a alphabeta:2 --judge "$T/bad.judge"; has err "line 3: expected a board and 7 move values"
# The player reads a judged set as a source of values at its positions (lookup/sources/judged.c):
# --info says what it holds, and where a whole table is wanted it is refused by name.
expect 0 "$PLAY" --info "$J" --json; has out '"kind":"judged set","game":"connect4:7,6","positions":1000,'
expect 0 "$PLAY" --info "$J"; has out "judged set"
expect 1 "$PLAY" --table "$J" --position 4; has err "is a judged set of connect4:7,6 (values at 1000 positions only), not a whole table or a model"
expect 1 "$PLAY" --info "$T/bad.judge"; has err "bad.judge: line 3: expected a board and 7 move values"
# One agent graded by oxo-play --judge: the same share and interval as oxo-arena --judge gives it
# for the same seed (a search that draws from its stream, so the seed matters); a set of another
# game, no --agent, or a table instead of a set are refused.
expect 0 "$A" -g connect4 -a mcts:30 -a random --games 1 --seed 5 --bootstrap 0 --judge "$J" --json
KEPT='\("value_kept":[0-9.]*,"value_kept_low":[0-9.]*,"value_kept_high":[0-9.]*\)'
sed -n "s/.*\"agent\":\"mcts:30\"[^}]*$KEPT.*/\\1/p" "$T/out" >"$T/arena.kept"
expect 0 "$PLAY" --judge "$J" --agent mcts:30 --seed 5 --json
sed -n "s/.*$KEPT.*/\\1/p" "$T/out" >"$T/play.kept"
ok "oxo-play --judge gives oxo-arena --judge's figures ($(cat "$T/play.kept"))" sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' - "$T/arena.kept" "$T/play.kept"
has out '"judged_positions":1000,"kept":'
expect 0 "$PLAY" --judge connect4-7-6.judge --agent random --seed 1
has out "random keeps the value in "
has out "of the 1000 positions of connect4-7-6.judge"
expect 1 "$PLAY" --judge "$J" --game tictactoe --agent random; has err "is a judged set of connect4:7,6, not of tictactoe"
expect 2 "$PLAY" --judge "$J"; has err "--judge grades an --agent"
expect 1 "$PLAY" --judge "$SRC/data/tictactoe.oxt" --agent random; has err "is a table of tictactoe"

# A Q-table of the browser app read back as an agent (qtable:FILE, issue 48): the one oxo-export
# writes from the table plays as the table (never loses, keeps the value at every move), the app's
# other keys are skipped, a state it lacks is all zeros (its first free cell, as the app plays it),
# and a file that is no such table is refused with what and where.
EXP=$(dirname "$PLAY")/oxo-export
expect 0 "$EXP" -f qtable -o "$T/q.json"
jq '{stats: {games: 3, wins: [1, 2]}, epsilon: 0, learningRate: 0, difficulty: "hard", q: .q}' "$T/q.json" >"$T/app.json"
expect 0 "$PLAY" --agent qtable:"$T/app.json" --self-play --versus-agent random --games 200 --seed 5
has out "O won 0"
expect 0 "$PLAY" --agent random --versus-agent qtable:"$T/app.json" --self-play --games 200 --seed 6
has out "X won 0"
expect 0 "$A" -a random -a app=qtable:"$T/app.json" --games 10 --json
ok "the arena's judge did not find the Q-table keeping the value at every move: $(cat "$T/out")" \
    jq -e '.ratings[] | select(.agent == "app") | .value_kept == 1 and .losses == 0' "$T/out" >/dev/null
printf '{"q": []}' >"$T/empty.json"
expect 0 "$PLAY" --agent qtable:"$T/empty.json" --position '.........' --json && has out '"move":0,'
expect 0 "$PLAY" --agent qtable:"$T/empty.json" --position 'X........' --json && has out '"move":1,'
head -c 300 "$T/q.json" >"$T/cut.json"
expect 1 "$PLAY" --agent qtable:"$T/cut.json" --position '.........' && has err "cut.json: byte"
printf '{"q": [["XXXXXXXXX", [0,0,0,0,0,0,0,0,0]]]}' >"$T/odd.json"
expect 1 "$PLAY" --agent qtable:"$T/odd.json" --position '.........' && has err "a state no game reaches"
printf '{"q": [["X--------", [0,0,0,0,0,0,0,0]]]}' >"$T/short.json"
expect 1 "$PLAY" --agent qtable:"$T/short.json" --position '.........' && has err "',' expected here"
printf '{"stats": {}}' >"$T/noq.json"
expect 1 "$PLAY" --agent qtable:"$T/noq.json" --position '.........' && has err 'no "q" key'
expect 1 "$PLAY" --agent qtable:"$T" --position '.........' && has err "not a regular file"
expect 2 "$PLAY" --game connect4:4,4 --agent qtable:"$T/q.json" --position 1 && has err "tic-tac-toe's, not connect4 4x4"
expect 2 "$PLAY" --agent qtable --position '.........' && has err "qtable needs a file"
finish
