#!/usr/bin/env python3
"""A reader of oxo-export --form python, written to the layout's description: the dictionary maps
9 cells (X, O, _) plus "1" (X to move) or "0" (O to move) to the value for X (1, 0, -1). X tries
each free cell and takes the move whose board (now O to move, key ending in "0") is worth most to
X; O the one worth least; the first such cell on ties.

It plays every complete game against the table player (the opponent taking, in turn, each of its
best moves, read from the table player's own answers) and against any opponent at all (every legal
reply), as X and as O, and fails on any loss.
Usage: python_player.py EXPORT.json TABLE_MOVES.json
"""
import json
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(b):
    for a, c, d in LINES:
        if b[a] != "_" and b[a] == b[c] == b[d]:
            return b[a]
    return "D" if "_" not in b else None


def choose(values, b):
    x_to_move = b.count("X") == b.count("O")
    me, after = ("X", "0") if x_to_move else ("O", "1")
    best, best_v = None, None
    for i in range(9):
        if b[i] == "_":
            v = values[b[:i] + me + b[i + 1:] + after]
            if best is None or (v > best_v if x_to_move else v < best_v):
                best, best_v = i, v
    return best


def games(values, table_moves, side, any_opponent):
    """Plays every game; returns (games, losses)."""
    played = lost = 0
    stack = ["_" * 9]
    while stack:
        b = stack.pop()
        w = winner(b)
        if w:
            played += 1
            lost += w not in ("D", side)
            continue
        mover = "X" if b.count("X") == b.count("O") else "O"
        if mover == side:
            i = choose(values, b)
            stack.append(b[:i] + mover + b[i + 1:])
        else:
            replies = [i for i in range(9) if b[i] == "_"] if any_opponent else table_moves[b.replace("_", ".")]
            for i in replies:
                stack.append(b[:i] + mover + b[i + 1:])
    return played, lost


def main():
    values = json.load(open(sys.argv[1]))
    table_moves = json.load(open(sys.argv[2]))
    total = losses = 0
    for side in "XO":
        for any_opponent in (False, True):
            g, l = games(values, table_moves, side, any_opponent)
            total += g
            losses += l
            print(f"python reader as {side} against {'any opponent' if any_opponent else 'the table player'}:"
                  f" {g} games, {l} lost")
    print(f"python reader: {total} games, {losses} lost")
    sys.exit(1 if losses or total == 0 else 0)


main()
