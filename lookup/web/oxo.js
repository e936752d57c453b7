// The page's logic: the board, the turns, the hints, the session's games, the learning. Every value
// comes from WebAssembly: the engine (engine.c around the exported C player: a solved table, or the
// shipped 7x6 n-tuple network) or the learner (oxo-train's code in a worker: learn.js); this file
// only draws and asks. window.oxo is the same engine for scripts (the browser test
// compares it with oxo-play). Boards are masks of up to 42 cells, kept as plain numbers (exact up
// to 2^53) and handed to the engine as two 32-bit halves: JavaScript's bit operators stop at 32.
'use strict';

const GAMES = [
  { id: 'tictactoe', name: 'Tic-tac-toe' },
  { id: 'connect4-4-4', name: 'Connect-4, 4x4' },
  { id: 'connect4-7-6', name: 'Connect-4, 7x6 (learned network)', about: 'about-net' },
  { id: 'connect4-7-6-azero', name: 'Connect-4, 7x6 (AlphaZero-lite network)', about: 'about-azero' },
  { id: 'connect4-7-6-neat', name: 'Connect-4, 7x6 (NEAT network)', about: 'about-neat' },
];

// The boards the page can learn on: those whose every position fits a table in the browser, each
// with its solved table (the learner's grade) and how oxo-train names it.
const LEARNABLE = {
  // episodes: the default run (tic-tac-toe's 20,000 are perfect; Connect-4 4x4's 300,000 keep
  // the value in 96% of its 134,289 positions, a few seconds).
  tictactoe: { spec: 'tictactoe', table: 'tictactoe.oxt', qtable: true, episodes: 20000 },
  'connect4-4-4': { spec: 'connect4:4,4', table: 'connect4-4-4.oxt', qtable: false, episodes: 300000 },
};

const state = {
  engine: null, x: 0, o: 0, moves: '', over: false, busy: false, counted: false, scores: null, pickSeed: 1,
  stats: { X: { won: 0, drawn: 0, lost: 0 }, O: { won: 0, drawn: 0, lost: 0 } },
};
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
  const learned = learnedPlays() && state.scores;
  if (hints && yourTurn && learned) {
    state.scores.forEach((v, m) => { if (v !== null) hintOf[m] = { move: m, value: v }; });
  } else if (hints && yourTurn) for (const mv of q.moves) hintOf[mv.move] = mv;
  const graded = eng.network || learned; // values on a scale, not solved outcomes
  const line = winningLine(eng, q);
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
      const name = graded ? netName(h.value) : NAMES[h.value];
      b.classList.add(name);
      const tag = document.createElement('span');
      tag.className = 'hint';
      tag.textContent = graded ? signed(h.value) : `${name[0].toUpperCase()}${h.value ? h.distance : ''}`;
      b.appendChild(tag);
      b.title = graded ? `${learned ? 'the learned' : 'the network\'s'} value: ${signed(h.value)}` : `${name}${h.value ? ` in ${h.distance}` : ''}`;
      b.dataset.hint = graded ? signed(h.value) : name;
      // A network's or learner's value on a graded scale (hints were only green or red whatever
      // the value).
      if (graded) b.style.background = netColour(h.value);
    }
    if (has(line, cell)) b.classList.add('line');
    b.setAttribute('aria-label', `${eng.gravity ? `column ${col + 1}` : `cell ${cell + 1}`}${stone ? `: ${stone}` : ''}`);
    b.addEventListener('click', () => play(move));
    board.appendChild(b);
  }
  // Which colour is whose (nothing said so).
  $('sides').innerHTML = eng.gravity
    ? `<span class="disc" style="background:#e8c21a"></span> X (first) &nbsp; <span class="disc" style="background:#d33"></span> O (second) &nbsp; you: ${human}`
    : `<b style="color:#1a56c4">X</b> first &nbsp; <b style="color:#c42a1a">O</b> second &nbsp; you: ${human}`;
  $('legend').hidden = !hints || eng.network || learnedPlays();
  $('netlegend').hidden = !hints || !eng.network;
  $('learnlegend').hidden = !hints || !learnedPlays();
  $('about-table').hidden = eng.network || learnedPlays();
  $('about-learned').hidden = !learnedPlays();
  const w = winnerText(q), status = $('status');
  status.dataset.state = w ? (w === 'draw' ? 'draw' : `won-${w}`) : 'playing';
  if (w === 'draw') status.textContent = 'Draw.';
  else if (w) status.textContent = w === human ? 'You won!' : 'The computer won.';
  else status.textContent = q.toMove === human ? `Your move (${human}).` : 'The computer is thinking…';
  state.over = !!w;
  if (w && !state.counted) {
    state.counted = true;
    const r = state.stats[human];
    if (w === 'draw') r.drawn++; else if (w === human) r.won++; else r.lost++;
  }
  renderStats();
}

// The line of the winner's stones at the end of a game (a mask, 0 when none): drawn on the board.
function winningLine(eng, q) {
  if (!q.over || q.value === 0) return 0;
  const m = q.toMove === 'X' ? state.o : state.x;
  const lo = eng.e.web_line(m % 2 ** 32, Math.floor(m / 2 ** 32), 0);
  const hi = eng.e.web_line(m % 2 ** 32, Math.floor(m / 2 ** 32), 1);
  return (lo >>> 0) + (hi >>> 0) * 2 ** 32;
}

// The games of this session, for each side the person took: won, drawn, lost.
function renderStats() {
  const rows = ['X', 'O'].map((side) => {
    const r = state.stats[side], n = r.won + r.drawn + r.lost;
    return `<tr data-side="${side}"><th>${side}</th><td>${n}</td><td>${r.won}</td><td>${r.drawn}</td><td>${r.lost}</td></tr>`;
  });
  document.querySelector('#stats tbody').innerHTML = rows.join('');
}

function apply(move) {
  const cell = cellOf(state.engine, state.x, state.o, move);
  if (cell < 0) return false;
  if (toMove(state.x, state.o) === 'X') state.x += 2 ** cell; else state.o += 2 ** cell;
  state.moves += String(move + 1);
  return true;
}

const movesList = () => [...state.moves].map((c) => Number(c) - 1);
const learnedPlays = () => $('player').value === 'learned' && !$('learn').hidden;

// The computer's move: from the engine at once, or from the learner (a question to its worker).
async function computerMove() {
  const q = query(state.engine, state.x, state.o);
  if (q.over || q.toMove === $('side').value) return;
  const level = Number($('level').value);
  const move = learnedPlays()
    ? (await ask('pick', { moves: movesList(), level, seed: state.pickSeed++ })).move
    : state.engine.e.web_pick(...halves(state.x, state.o), level);
  if (move >= 0) apply(move);
}

// After a change: the learner's values of the position when its hints are shown, then the board.
// A game the learned player finished is learned from first, when the person asked for it.
async function refresh() {
  const q = query(state.engine, state.x, state.o);
  if (learnedPlays() && $('keep').checked && q.over && !state.learnedFrom) {
    state.learnedFrom = true;
    const r = await ask('played', { moves: movesList() });
    if (r.rc) throw new Error(r.stderr.trim() || 'the game was not learned');
    learner.games = (learner.games || 0) + 1;
    $('learn-status').textContent = `Learned from ${learner.games} game${learner.games > 1 ? 's' : ''} against you: it now keeps the value in ${(100 * r.json.accuracy).toFixed(2)}% of ${r.json.graded_on}.`;
    $('learn-status').dataset.state = 'learned-game';
  }
  state.scores = null;
  if (learnedPlays() && $('hints').checked) {
    state.scores = (await ask('scores', { moves: movesList(), movesMax: state.engine.movesMax })).scores;
  }
  render();
}

// The learner's turn: the board at once (no move to make yet: the person's, or the empty board),
// then its move and its values, asked of the worker.
function learnedTurn() {
  state.busy = true;
  render();
  computerMove().then(() => { state.busy = false; return refresh(); }).catch(learnError);
}

// A person's move, then the computer's: at once from the engine (the board never shows a turn in
// between), through the worker when the learner plays.
function play(move) {
  if (state.over || state.busy) return;
  const q = query(state.engine, state.x, state.o);
  if (q.toMove !== $('side').value || !apply(move)) return;
  if (!learnedPlays()) {
    computerMove();
    render();
    return;
  }
  learnedTurn();
}

function seedFromUrl() {
  const s = new URLSearchParams(location.search).get('seed');
  const n = s !== null && /^\d+$/.test(s) ? Number(s) : Math.floor(Math.random() * 2 ** 32);
  state.engine.e.web_seed(n >>> 0, Math.floor(n / 2 ** 32) >>> 0);
}

function newGame() {
  state.x = 0; state.o = 0; state.moves = ''; state.over = false; state.counted = false; state.learnedFrom = false;
  if (!learnedPlays()) {
    computerMove();
    render();
    return;
  }
  learnedTurn();
}

async function selectGame(id) {
  state.busy = true;
  $('status').textContent = 'loading…';
  state.engine = await loadEngine(id);
  const net = state.engine.network;
  $('level').options[0].text = net ? '10 (best)' : '10 (perfect)';
  $('about-table').hidden = net;
  // a network's own paragraph: what it is and how it was learned
  for (const g of GAMES) if (g.about) $(g.about).hidden = g.id !== id;
  seedFromUrl();
  state.busy = false;
  await learnGame(id);
  newGame();
}

// The learner: oxo-train's code in a worker (learn.js), asked by messages, each answered by id.
// Progress messages of a run come under its id before its answer.
const learner = { worker: null, next: 1, waiting: new Map(), loaded: null, trained: false, game: null };

function ask(op, body = {}, onProgress = null) {
  return new Promise((resolve, reject) => {
    const id = learner.next++;
    learner.waiting.set(id, { resolve, reject, onProgress });
    learner.worker.postMessage({ id, op, ...body });
  });
}

function startWorker() {
  learner.worker = new Worker('learn.js');
  learner.worker.onmessage = ({ data }) => {
    const w = learner.waiting.get(data.id);
    if (!w) return;
    if (data.progress) { if (w.onProgress) w.onProgress(data.progress); return; }
    learner.waiting.delete(data.id);
    if (data.error) w.reject(new Error(data.error));
    else w.resolve(data);
  };
  learner.worker.onerror = (e) => learnError(new Error(e.message || 'the learner failed'));
  return ask('load');
}

function learnError(err) {
  state.busy = false;
  $('learn-status').textContent = `error: ${err.message}`;
  $('learn-status').dataset.state = 'error';
}

// oxo-train's options for the controls, and the command line that makes the same run.
function learnArgs() {
  const g = LEARNABLE[learner.game], algo = $('algo').value;
  const args = ['--game', g.spec, '--algo', algo, '--episodes', $('episodes').value, '--alpha', $('alpha').value,
    '--gamma', $('gamma').value, '--epsilon', $('epsilon').value, '--epsilon-end', $('epsilon-end').value,
    '--epsilon-length', $('epsilon-length').value];
  if (algo === 'td') args.push('--lambda', $('lambda').value);
  args.push('--seed', $('learn-seed').value, '-o', `${learner.game}-${algo}.oxm`);
  return args;
}

function showSettings() {
  for (const id of ['alpha', 'gamma', 'epsilon', 'epsilon-end', 'lambda']) document.querySelector(`output[for="${id}"]`).textContent = $(id).value;
  $('lambda-label').hidden = $('algo').value !== 'td';
  if (!learner.game) return;
  const g = LEARNABLE[learner.game];
  $('cmdline').textContent = ['oxo-train', ...(g.spec === 'tictactoe' ? [] : ['--table', g.table]), ...learnArgs()].join(' ');
}

function setLearned(on) {
  learner.trained = on;
  $('player').options[1].disabled = !on;
  if (!on) $('player').value = 'table';
  $('download').disabled = !on;
  const q = on && LEARNABLE[learner.game].qtable;
  $('export').disabled = !q;
  $('import').disabled = !(learner.game && LEARNABLE[learner.game].qtable);
}

// A game the page can learn on: the learner gets its solved table (it grades against it).
async function learnGame(id) {
  const g = LEARNABLE[id];
  $('learn').hidden = !g;
  $('nolearn').hidden = !!g;
  learner.game = g ? id : null;
  if (g) $('episodes').value = String(g.episodes);
  setLearned(false);
  showSettings();
  $('report').hidden = true;
  $('progress').hidden = true;
  $('learn-status').textContent = '';
  if (!g) return;
  try {
    if (!learner.loaded) learner.loaded = startWorker();
    await learner.loaded;
    const bytes = await fetchBytes(g.table, () => {});
    const r = await ask('table', { bytes });
    if (r.rc) throw new Error(r.stderr.trim() || 'the table was refused');
    $('learn-status').textContent = 'Ready to learn.';
    $('learn-status').dataset.state = 'ready';
  } catch (err) {
    $('train').disabled = true;
    learnError(new Error(`${err.message} (the page cannot learn: was learn.wasm built? see README)`));
  }
}

async function train() {
  const args = learnArgs();
  $('train').disabled = true;
  $('stop').hidden = false;
  for (const b of ['download', 'export', 'import']) $(b).disabled = true; // the run is changing
  $('progress').hidden = false;
  $('progress').value = 0;
  $('report').hidden = true;
  $('learn-status').dataset.state = 'training';
  const t0 = performance.now();
  try {
    const r = await ask('train', { args }, (p) => {
      $('progress').value = p.done / p.goal;
      const eta = p.done > 0 ? (p.seconds * (p.goal - p.done)) / p.done : 0;
      $('learn-status').textContent = `${p.done.toLocaleString('en')} / ${p.goal.toLocaleString('en')} episodes, ε ${p.epsilon.toFixed(3)}, about ${Math.ceil(eta)} s left`;
    });
    if (r.rc) throw new Error(r.stderr.trim() || `oxo-train exited ${r.rc}`);
    $('progress').value = 1;
    const j = r.json;
    learner.report = j;
    learner.games = 0;
    $('report').hidden = false;
    $('report').textContent = r.text;
    $('learn-status').textContent = `${j.stopped ? `Stopped at ${j.episodes.toLocaleString('en')} episodes (the same run as --episodes ${j.episodes})` : 'Trained'} in ${((performance.now() - t0) / 1000).toFixed(1)} s: the learner keeps the value in ${(100 * j.accuracy).toFixed(2)}% of ${j.graded_on}. It now plays.`;
    $('learn-status').dataset.state = 'trained';
    setLearned(true);
    $('player').value = 'learned';
    newGame();
  } catch (err) {
    setLearned(false);
    learnError(err);
  } finally {
    $('train').disabled = false;
    $('stop').hidden = true;
  }
}

function save(name, bytes, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([bytes], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function learnControls() {
  for (const id of ['algo', 'episodes', 'alpha', 'gamma', 'epsilon', 'epsilon-end', 'epsilon-length', 'lambda', 'learn-seed']) {
    $(id).addEventListener('input', showSettings);
  }
  // Each learner's own default learning rate (oxo-train's: q 1, td 0.5).
  $('algo').addEventListener('change', () => { $('alpha').value = $('algo').value === 'td' ? '0.5' : '1'; showSettings(); });
  $('train').addEventListener('click', train);
  $('stop').addEventListener('click', () => ask('stop'));
  $('player').addEventListener('change', newGame);
  $('download').addEventListener('click', async () => {
    const r = await ask('model');
    if (!r.bytes) { learnError(new Error(r.stderr.trim() || 'no model')); return; }
    save(`${learner.game}-${$('algo').value}.oxm`, r.bytes, 'application/octet-stream');
  });
  $('export').addEventListener('click', async () => {
    const r = await ask('json');
    if (!r.text) { learnError(new Error(r.stderr.trim() || 'no table')); return; }
    save(`${learner.game}-${$('algo').value}.json`, r.text, 'application/json');
  });
  $('import').addEventListener('change', async () => {
    const file = $('import').files[0];
    if (!file) return;
    const r = await ask('import', { text: await file.text(), args: learnArgs() });
    $('import').value = '';
    if (r.rc) { learnError(new Error(r.stderr.trim())); return; }
    $('learn-status').textContent = `Imported ${file.name}: the computer plays its values.`;
    $('learn-status').dataset.state = 'imported';
    setLearned(true);
    $('player').value = 'learned';
    newGame();
  });
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
  $('hints').addEventListener('change', () => refresh().catch(learnError));
  learnControls();
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
