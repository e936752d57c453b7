// The page's logic: the board, the turns, the hints. Every value comes from the WebAssembly engine
// (engine.c around the exported C player: a solved table, or the shipped 7x6 n-tuple network);
// this file only draws and asks. window.oxo is the same engine for scripts (the browser test
// compares it with oxo-play). Boards are masks of up to 42 cells, kept as plain numbers (exact up
// to 2^53) and handed to the engine as two 32-bit halves: JavaScript's bit operators stop at 32.
'use strict';

const GAMES = [
  { id: 'tictactoe', name: 'Tic-tac-toe' },
  { id: 'connect4-4-4', name: 'Connect-4, 4x4' },
  { id: 'connect4-7-6', name: 'Connect-4, 7x6 (learned network)' },
];

const state = { engine: null, x: 0, o: 0, moves: '', over: false, busy: false };
const $ = (id) => document.getElementById(id);

// The module's bytes, with progress(loaded, total) as they arrive: the 7x6 network's module is
// 13 MB, seconds on a slow link, and a page that only says "loading" looks stuck. total is 0
// when the server gives no length.
async function fetchBytes(url, progress) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const total = Number(response.headers.get('Content-Length')) || 0;
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader(), parts = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    progress(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const p of parts) { bytes.set(p, at); at += p.length; }
  return bytes.buffer;
}

const mb = (n) => (n / 1e6).toFixed(1);

async function loadEngine(id) {
  const bytes = await fetchBytes(`${id}.wasm`, (loaded, total) => {
    $('status').textContent = total ? `loading… ${mb(loaded)} of ${mb(total)} MB` : `loading… ${mb(loaded)} MB`;
  });
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const e = instance.exports;
  return {
    e,
    cells: e.web_cells(), width: e.web_width(), height: e.web_height(), gravity: !!e.web_gravity(),
    movesMax: e.web_moves_max(), network: !!e.web_network(),
  };
}

const has = (m, cell) => Math.floor(m / 2 ** cell) % 2 === 1;
const halves = (x, o) => [x % 2 ** 32, Math.floor(x / 2 ** 32), o % 2 ** 32, Math.floor(o / 2 ** 32)];
function count(m) { let n = 0; for (; m > 0; m = Math.floor(m / 2)) n += m % 2; return n; }
function toMove(x, o) { return count(x) === count(o) ? 'X' : 'O'; }
function cellOf(eng, x, o, move) { return eng.e.web_cell(...halves(x, o), move); }

// Board text as oxo's programs take it: cells X, O, '.' (m,n,k) or the columns played (Connect-4).
function parseBoard(eng, text) {
  let x = 0, o = 0;
  if (eng.gravity) {
    for (const ch of text) {
      const cell = cellOf(eng, x, o, Number(ch) - 1);
      if (cell < 0) return null;
      if (toMove(x, o) === 'X') x += 2 ** cell; else o += 2 ** cell;
    }
  } else {
    if (text.length !== eng.cells) return null;
    for (let i = 0; i < eng.cells; i++) {
      if (text[i] === 'X') x += 2 ** i; else if (text[i] === 'O') o += 2 ** i; else if (text[i] !== '.') return null;
    }
  }
  return { x, o };
}

// What the engine says of a position: value and distance for the side to move, each move's. A
// network values the moves only (in -1..1, 1 a win, 0 a draw): a game still on has value null.
function query(eng, x, o) {
  const pos = eng.e.web_position(...halves(x, o));
  if (pos < 0) return null;
  const over = pos >> 16, distance = pos & 255;
  const value = eng.network && !over ? null : ((pos >> 8) & 255) - 1;
  const n = eng.e.web_query(...halves(x, o));
  if (n < 0) return null;
  const moves = [];
  for (let m = 0; m < eng.movesMax; m++) {
    const v = eng.e.web_value(m);
    if (v > -2) moves.push({ move: m, value: v, distance: eng.e.web_distance(m) });
  }
  const best = [];
  const k = n > 0 ? eng.e.web_best_count(...halves(x, o)) : 0;
  for (let i = 0; i < k; i++) best.push(eng.e.web_best(i));
  return { over: !!over, toMove: toMove(x, o), value, distance, moves, best };
}

const NAMES = { 1: 'win', 0: 'draw', '-1': 'loss' };
// A network's value of a move, coloured by its sign (it estimates; it has not solved the game).
const netName = (v) => (v > 0 ? 'win' : v < 0 ? 'loss' : 'draw');
const signed = (v) => `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
// -1 red, 0 yellow, +1 green, as the legend's scale.
const netColour = (v) => `hsl(${Math.round(60 * (Math.max(-1, Math.min(1, v)) + 1))}, 70%, 80%)`;

function winnerText(q) {
  if (!q.over) return null;
  if (q.value === 0) return 'draw';
  return q.toMove === 'X' ? 'O' : 'X';
}

function render() {
  const eng = state.engine, board = $('board');
  const q = query(eng, state.x, state.o);
  const human = $('side').value, hints = $('hints').checked;
  board.style.gridTemplateColumns = `repeat(${eng.width}, auto)`;
  board.style.setProperty('--cols', eng.width);
  board.classList.toggle('gravity', eng.gravity);
  board.innerHTML = '';
  const yourTurn = !q.over && q.toMove === human && !state.busy;
  const hintOf = {};
  if (hints && yourTurn) for (const mv of q.moves) hintOf[mv.move] = mv;
  for (let cell = 0; cell < eng.cells; cell++) {
    const b = document.createElement('button');
    const col = cell % eng.width;
    const move = eng.gravity ? col : cell;
    const stone = has(state.x, cell) ? 'X' : has(state.o, cell) ? 'O' : '';
    b.dataset.cell = cell;
    b.dataset.move = move;
    b.textContent = stone;
    if (stone) b.classList.add(stone.toLowerCase(), eng.gravity ? 'gravity-stone' : 'placed');
    const landing = cellOf(eng, state.x, state.o, move);
    b.disabled = !yourTurn || landing < 0;
    // Hints colour the free cell a move would fill (the landing cell on Connect-4).
    const h = hintOf[move];
    if (h && !stone && (!eng.gravity || landing === cell)) {
      const name = eng.network ? netName(h.value) : NAMES[h.value];
      b.classList.add(name);
      const tag = document.createElement('span');
      tag.className = 'hint';
      tag.textContent = eng.network ? signed(h.value) : `${name[0].toUpperCase()}${h.value ? h.distance : ''}`;
      b.appendChild(tag);
      b.title = eng.network ? `the network's value: ${signed(h.value)}` : `${name}${h.value ? ` in ${h.distance}` : ''}`;
      b.dataset.hint = eng.network ? signed(h.value) : name;
      // A network's value on a graded scale (its hints were only green or red whatever the value).
      if (eng.network) b.style.background = netColour(h.value);
    }
    b.setAttribute('aria-label', `${eng.gravity ? `column ${col + 1}` : `cell ${cell + 1}`}${stone ? `: ${stone}` : ''}`);
    b.addEventListener('click', () => play(move));
    board.appendChild(b);
  }
  // Which colour is whose (nothing said so).
  $('sides').innerHTML = eng.gravity
    ? `<span class="disc" style="background:#e8c21a"></span> X (first) &nbsp; <span class="disc" style="background:#d33"></span> O (second) &nbsp; you: ${human}`
    : `<b style="color:#1a56c4">X</b> first &nbsp; <b style="color:#c42a1a">O</b> second &nbsp; you: ${human}`;
  $('legend').hidden = !hints || eng.network;
  $('netlegend').hidden = !hints || !eng.network;
  const w = winnerText(q), status = $('status');
  status.dataset.state = w ? (w === 'draw' ? 'draw' : `won-${w}`) : 'playing';
  if (w === 'draw') status.textContent = 'Draw.';
  else if (w) status.textContent = w === human ? 'You won!' : 'The computer won.';
  else status.textContent = q.toMove === human ? `Your move (${human}).` : 'The computer is thinking…';
  state.over = !!w;
}

function apply(move) {
  const cell = cellOf(state.engine, state.x, state.o, move);
  if (cell < 0) return false;
  if (toMove(state.x, state.o) === 'X') state.x += 2 ** cell; else state.o += 2 ** cell;
  state.moves += String(move + 1);
  return true;
}

function computerMove() {
  const q = query(state.engine, state.x, state.o);
  if (q.over || q.toMove === $('side').value) return;
  const move = state.engine.e.web_pick(...halves(state.x, state.o), Number($('level').value));
  if (move >= 0) apply(move);
}

function play(move) {
  if (state.over || state.busy) return;
  const q = query(state.engine, state.x, state.o);
  if (q.toMove !== $('side').value || !apply(move)) return;
  computerMove();
  render();
}

function seedFromUrl() {
  const s = new URLSearchParams(location.search).get('seed');
  const n = s !== null && /^\d+$/.test(s) ? Number(s) : Math.floor(Math.random() * 2 ** 32);
  state.engine.e.web_seed(n >>> 0, Math.floor(n / 2 ** 32) >>> 0);
}

function newGame() {
  state.x = 0; state.o = 0; state.moves = ''; state.over = false;
  computerMove();
  render();
}

async function selectGame(id) {
  state.busy = true;
  $('status').textContent = 'loading…';
  state.engine = await loadEngine(id);
  const net = state.engine.network;
  $('level').options[0].text = net ? '10 (best)' : '10 (perfect)';
  $('about-table').hidden = net;
  $('about-net').hidden = !net;
  seedFromUrl();
  state.busy = false;
  newGame();
}

async function main() {
  for (const g of GAMES) $('game').add(new Option(g.name, g.id));
  for (let l = 10; l >= 1; l--) $('level').add(new Option(l === 10 ? '10 (perfect)' : String(l), String(l)));
  const params = new URLSearchParams(location.search);
  if (params.get('game')) $('game').value = params.get('game');
  if (params.get('level')) $('level').value = params.get('level');
  if (params.get('side')) $('side').value = params.get('side');
  $('hints').checked = params.get('hints') === '1';
  $('game').addEventListener('change', () => selectGame($('game').value));
  $('side').addEventListener('change', newGame);
  $('level').addEventListener('change', render);
  $('hints').addEventListener('change', render);
  $('new').addEventListener('click', newGame);
  await selectGame($('game').value);
  window.oxo = {
    ready: true,
    // query(board text) -> { over, toMove, value, distance, moves: [{move, value, distance}], best }
    query: (text) => { const p = parseBoard(state.engine, text); return p && query(state.engine, p.x, p.o); },
    game: () => $('game').value,
  };
}

main().catch((err) => { $('status').textContent = `error: ${err.message}`; $('status').dataset.state = 'error'; });
