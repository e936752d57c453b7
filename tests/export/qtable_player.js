// A reader of oxo-export --form qtable, written to the description of a browser Q-learning app's
// file: {"q": [[state, [q0..q8]], ...], ...}, the state being the 9 cells as X, O and -; the app
// takes the free cell of highest value, the first one on ties.
//
// It plays every complete game against the table player (the opponent taking, in turn, each of its
// best moves) and against any opponent at all, as X and as O, and fails on any loss.
// Usage: node qtable_player.js EXPORT.json TABLE_MOVES.json
'use strict';
const fs = require('fs');

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

function winner(b) {
  for (const [a, c, d] of LINES) if (b[a] !== '-' && b[a] === b[c] && b[a] === b[d]) return b[a];
  return b.includes('-') ? null : 'D';
}

function choose(q, b) {
  const row = q.get(b);
  if (!row) throw new Error(`state ${b} is not in the Q-table`);
  let best = -1;
  for (let i = 0; i < 9; i++) if (b[i] === '-' && (best < 0 || row[i] > row[best])) best = i;
  return best;
}

function games(q, tableMoves, side, anyOpponent) {
  let played = 0, lost = 0;
  const stack = ['-'.repeat(9)];
  while (stack.length) {
    const b = stack.pop();
    const w = winner(b);
    if (w) {
      played++;
      if (w !== 'D' && w !== side) lost++;
      continue;
    }
    const mover = [...b].filter((c) => c === 'X').length === [...b].filter((c) => c === 'O').length ? 'X' : 'O';
    const put = (i) => b.slice(0, i) + mover + b.slice(i + 1);
    if (mover === side) stack.push(put(choose(q, b)));
    else {
      const replies = anyOpponent ? [...Array(9).keys()].filter((i) => b[i] === '-')
        : tableMoves[b.replace(/-/g, '.')];
      for (const i of replies) stack.push(put(i));
    }
  }
  return [played, lost];
}

const file = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const tableMoves = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
for (const k of ['lr', 'gamma', 'epsilon', 'difficulty']) if (!(k in file)) throw new Error(`no "${k}"`);
const q = new Map(file.q.map(([s, row]) => [s, row]));
let total = 0, losses = 0;
for (const side of ['X', 'O']) {
  for (const anyOpponent of [false, true]) {
    const [g, l] = games(q, tableMoves, side, anyOpponent);
    total += g;
    losses += l;
    console.log(`qtable reader as ${side} against ${anyOpponent ? 'any opponent' : 'the table player'}: ${g} games, ${l} lost`);
  }
}
console.log(`qtable reader: ${total} games, ${losses} lost`);
process.exit(losses || !total ? 1 : 0);
